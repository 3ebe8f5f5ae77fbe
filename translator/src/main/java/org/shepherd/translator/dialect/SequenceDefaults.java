package org.shepherd.translator.dialect;

/**
 * What an engine's {@code CREATE SEQUENCE} assumes for what it leaves out, so that a sequence kept by the shepherd
 * starts and ends where the client's own engine would have started and ended it.
 *
 * @param type the type of a sequence without {@code AS} (Derby, HSQLDB, Db2: INTEGER; PostgreSQL, MariaDB: BIGINT)
 * @param typeRangeBounds whether MINVALUE and MAXVALUE default to the type's range in both directions (Derby, HSQLDB);
 *     otherwise (the SQL of PostgreSQL, MariaDB, Db2) an ascending sequence's MINVALUE is 1 and a descending one's
 *     MAXVALUE is -1
 * @param startAtZero whether START WITH defaults to 0 (HSQLDB); otherwise to MINVALUE when ascending, MAXVALUE when
 *     descending (so Derby's ascending INTEGER sequence starts at -2147483648)
 */
public record SequenceDefaults(String type, boolean typeRangeBounds, boolean startAtZero) {

    /** PostgreSQL's and MariaDB's defaults. */
    public static final SequenceDefaults STANDARD = new SequenceDefaults("BIGINT", false, false);
}
