package org.shepherd.translator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.shepherd.translator.dialect.Dialect;
import org.shepherd.translator.dialect.Dialect.TypeKind;

/** Maps a type as the client wrote it (any dialect's spelling) to a canonical {@link TypeKind} with length and scale. */
final class SqlTypes {

    /** A canonical type; {@code identity} is set for SERIAL-like types that imply an identity column. */
    record Spec(TypeKind kind, int length, int scale, boolean identity) {
        /**
         * The column type in DDL. CHAR(n) is declared VARCHAR(n) on every engine: engines disagree on whether a CHAR value
         * carries its blank padding into LENGTH, {@code ||} and comparisons, while VARCHAR keeps what was written everywhere.
         */
        String column(Dialect d) {
            checkFits(d);
            return d.columnType(columnKind(), length, scale);
        }

        /** A DECIMAL with more digits than {@code d} holds is declared with fewer there, unless its scale does not fit. */
        private void checkFits(Dialect d) {
            if (kind == TypeKind.DECIMAL && length > d.maxDecimalPrecision() && scale >= d.maxDecimalPrecision()) {
                throw TranslationException.unsupported("DECIMAL(" + length + ", " + scale + ") keeps more fraction digits"
                        + " than a DECIMAL of " + d.name() + " holds (" + d.maxDecimalPrecision() + " digits in all)");
            }
        }

        /** The kind a column of this type is declared with on every engine (see {@link #column}). */
        TypeKind columnKind() {
            return kind == TypeKind.CHAR ? TypeKind.VARCHAR : kind;
        }

        String cast(Dialect d) {
            checkFits(d);
            return d.castType(kind, length, scale);
        }

        boolean isInteger() {
            return kind == TypeKind.SMALLINT || kind == TypeKind.INTEGER || kind == TypeKind.BIGINT;
        }
    }

    private static final int MAX_TIMESTAMP_PRECISION = 6;
    /** Derby's and Db2's {@code BLOB(1M)}, {@code CLOB(64 K)} (the parser hands it on as {@code 64, K}); MySQL's {@code BLOB(n)}. */
    private static final java.util.regex.Pattern LOB_LENGTH = java.util.regex.Pattern.compile("\\d+\\s*,?\\s*[KMG]?");

    private SqlTypes() {
    }

    /** MySQL's {@code CHARACTER SET name} (or {@code CHARSET name}) in a column's type. */
    private static final java.util.regex.Pattern CHARACTER_SET = java.util.regex.Pattern.compile(
            " (?:CHARACTER SET|CHARSET) [A-Z0-9_]+");

    static Spec parse(String raw, Dialect client) {
        String text = raw.trim().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
        if (client.family() == Dialect.Family.MYSQL) {
            // a column's character set: the replica setup fixes one for every replica, as for a table's (DdlRenderer)
            text = CHARACTER_SET.matcher(text).replaceAll("");
        }
        String name = text;
        List<Integer> args = new ArrayList<>();
        String suffix = "";
        int open = text.indexOf('(');
        if (open >= 0) {
            int close = text.indexOf(')', open);
            if (close < 0) {
                throw unsupported(raw);
            }
            name = text.substring(0, open).trim();
            Spec lob = largeObject(name);
            if (lob != null && LOB_LENGTH.matcher(text.substring(open + 1, close).trim()).matches()
                    && text.substring(close + 1).isBlank()) {
                return lob; // the engines' largest: a length would mean different types on each (MySQL's BLOB(n))
            }
            for (String a : text.substring(open + 1, close).split(",")) {
                try {
                    args.add(Integer.parseInt(a.trim()));
                } catch (NumberFormatException e) {
                    throw unsupported(raw);
                }
            }
            suffix = text.substring(close + 1).trim();
        }
        if (suffix.equals("WITHOUT TIME ZONE") || name.endsWith(" WITHOUT TIME ZONE")) {
            name = name.replace(" WITHOUT TIME ZONE", "");
            suffix = "";
        }
        if (!suffix.isEmpty()) {
            throw unsupported(raw);
        }
        int a0 = args.isEmpty() ? -1 : args.get(0);
        int a1 = args.size() < 2 ? 0 : args.get(1);
        switch (name) {
            case "TINYINT":
            case "SMALLINT":
            case "INT2":
                return new Spec(TypeKind.SMALLINT, 0, 0, false);
            case "INT":
            case "INTEGER":
            case "INT4":
            case "MEDIUMINT":
                return new Spec(TypeKind.INTEGER, 0, 0, false);
            case "BIGINT":
            case "INT8":
                return new Spec(TypeKind.BIGINT, 0, 0, false);
            case "SIGNED":
            case "SIGNED INTEGER":
                return new Spec(TypeKind.BIGINT, 0, 0, false);
            case "SMALLSERIAL":
            case "SERIAL2":
                return new Spec(TypeKind.SMALLINT, 0, 0, true);
            case "SERIAL":
            case "SERIAL4":
                return new Spec(TypeKind.INTEGER, 0, 0, true);
            case "BIGSERIAL":
            case "SERIAL8":
                return new Spec(TypeKind.BIGINT, 0, 0, true);
            case "DECIMAL":
            case "NUMERIC":
            case "DEC":
            case "NUMBER":
                return decimal(raw, a0, a1, client);
            case "REAL":
                return new Spec(client.realIsDouble() ? TypeKind.DOUBLE : TypeKind.REAL, 0, 0, false);
            case "FLOAT4":
                return new Spec(TypeKind.REAL, 0, 0, false);
            case "FLOAT":
                if (a0 >= 0) {
                    return new Spec(a0 <= 24 ? TypeKind.REAL : TypeKind.DOUBLE, 0, 0, false);
                }
                return new Spec(client.floatWithoutPrecisionIsSingle() ? TypeKind.REAL : TypeKind.DOUBLE, 0, 0, false);
            case "DOUBLE":
            case "DOUBLE PRECISION":
            case "FLOAT8":
                return new Spec(TypeKind.DOUBLE, 0, 0, false);
            case "BOOLEAN":
            case "BOOL":
                return new Spec(TypeKind.BOOLEAN, 0, 0, false);
            case "BIT":
                if (a0 > 1) {
                    throw TranslationException.unsupported("BIT(" + a0 + "): a bit string has no portable equivalent; only BIT"
                            + " and BIT(1), which MySQL and its ORMs use for booleans, are taken (as BOOLEAN)");
                }
                return new Spec(TypeKind.BOOLEAN, 0, 0, false);
            case "CHAR":
            case "CHARACTER":
            case "NCHAR":
                return new Spec(TypeKind.CHAR, a0 < 0 ? 1 : a0, 0, false);
            case "VARCHAR":
            case "CHARACTER VARYING":
            case "CHAR VARYING":
            case "VARCHAR2":
            case "NVARCHAR":
                if (a0 < 0) {
                    throw TranslationException.unsupported("VARCHAR needs a length on most engines; write VARCHAR(n)");
                }
                return new Spec(TypeKind.VARCHAR, a0, 0, false);
            case "DATE":
                return new Spec(TypeKind.DATE, 0, 0, false);
            case "TIME":
                if (a0 > 0) {
                    throw TranslationException.unsupported("TIME(" + a0 + "): engines disagree on fractional seconds of TIME; "
                            + "write TIME, or a TIMESTAMP column");
                }
                return new Spec(TypeKind.TIME, 0, 0, false);
            case "TIMESTAMP":
            case "DATETIME":
            case "DATETIME2":
                if (a0 > MAX_TIMESTAMP_PRECISION) {
                    throw TranslationException.unsupported(name + "(" + a0 + "): at most microseconds (6) are kept by every engine");
                }
                return new Spec(TypeKind.TIMESTAMP, a0 < 0 ? Dialect.DEFAULT_TIMESTAMP_PRECISION : a0, 0, false);
            default:
                Spec lob = largeObject(name);
                if (lob == null) throw unsupported(raw);
                return lob;
        }
    }

    /** TEXT or BLOB for a large-object type name, else null. */
    private static Spec largeObject(String name) {
        switch (name) {
            case "TEXT":
            case "TINYTEXT":
            case "MEDIUMTEXT":
            case "LONGTEXT":
            case "CLOB":
            case "LONG VARCHAR":
            case "LONGVARCHAR":
            case "CHARACTER LARGE OBJECT":
                return new Spec(TypeKind.TEXT, 0, 0, false);
            case "BLOB":
            case "BYTEA":
            case "MEDIUMBLOB":
            case "LONGBLOB":
            case "LONGVARBINARY":
            case "BINARY LARGE OBJECT":
                return new Spec(TypeKind.BLOB, 0, 0, false);
            default:
                return null;
        }
    }

    private static Spec decimal(String raw, int precision, int scale, Dialect client) {
        if (precision >= 0) {
            return new Spec(TypeKind.DECIMAL, precision, scale, false);
        }
        int defaultPrecision = client.defaultDecimalPrecision();
        if (defaultPrecision < 0) {
            throw TranslationException.unsupported(raw.trim() + " without precision means different things on each engine; "
                    + "write DECIMAL(p, s)");
        }
        return new Spec(TypeKind.DECIMAL, defaultPrecision, 0, false);
    }

    private static TranslationException unsupported(String raw) {
        return TranslationException.unsupported("Type " + raw.trim() + " has no portable equivalent across the replicas' engines; "
                + "use SMALLINT, INTEGER, BIGINT, DECIMAL(p, s), REAL, DOUBLE PRECISION, BOOLEAN, CHAR(n), VARCHAR(n), "
                + "TEXT/CLOB, BLOB, DATE, TIME or TIMESTAMP");
    }
}
