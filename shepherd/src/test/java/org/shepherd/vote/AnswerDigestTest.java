package org.shepherd.vote;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.shepherd.protocol.ColumnInfo;

class AnswerDigestTest {

    private static ColumnInfo col(String label, int type) {
        return new ColumnInfo(label, label, type, "T", 10, 0, ResultSetMetaData.columnNullable, "", false);
    }

    private static final List<ColumnInfo> COLS = List.of(col("ID", Types.INTEGER), col("NAME", Types.VARCHAR));

    private static Ballot digest(List<ColumnInfo> cols, List<String> orderKeys, Object[]... rows) {
        AnswerDigest d = AnswerDigest.forRows(cols, orderKeys);
        for (Object[] r : rows) d.addRow(r);
        return d.finish();
    }

    @Test
    void rowsAreAMultisetWhenTheQueryFixesNoOrder() {
        Ballot a = digest(COLS, List.of(), new Object[] {1L, "a"}, new Object[] {2L, "b"});
        Ballot b = digest(COLS, List.of(), new Object[] {2L, "b"}, new Object[] {1L, "a"});
        assertThat(a).isEqualTo(b);
        assertThat(a.summary()).isEqualTo("2 rows");
    }

    @Test
    void multisetCountsDuplicates() {
        Ballot a = digest(COLS, List.of(), new Object[] {1L, "a"}, new Object[] {1L, "a"}, new Object[] {2L, "b"});
        Ballot b = digest(COLS, List.of(), new Object[] {1L, "a"}, new Object[] {2L, "b"}, new Object[] {2L, "b"});
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void orderKeySequenceMustMatchButTiesMayComeInAnyOrder() {
        List<ColumnInfo> cols = List.of(col("K", Types.INTEGER), col("V", Types.VARCHAR));
        Ballot a = digest(cols, List.of("k"), new Object[] {1L, "x"}, new Object[] {1L, "y"}, new Object[] {2L, "z"});
        Ballot tiesSwapped = digest(cols, List.of("K"), new Object[] {1L, "y"}, new Object[] {1L, "x"}, new Object[] {2L, "z"});
        Ballot misordered = digest(cols, List.of("K"), new Object[] {2L, "z"}, new Object[] {1L, "x"}, new Object[] {1L, "y"});
        assertThat(a).isEqualTo(tiesSwapped);
        assertThat(a).isNotEqualTo(misordered);
    }

    @Test
    void canonicalValuesAndLabelCaseDoNotMatterTypeFamilyDoes() {
        List<ColumnInfo> derby = List.of(col("total", Types.INTEGER), col("NAME", Types.CHAR));
        List<ColumnInfo> maria = List.of(col("TOTAL", Types.DECIMAL), col("name", Types.VARCHAR));
        assertThat(digest(derby, List.of(), new Object[] {5L, "ab  "}))
                .isEqualTo(digest(maria, List.of(), new Object[] {new BigDecimal("5.00"), "ab"}));
        List<ColumnInfo> approx = List.of(col("TOTAL", Types.DOUBLE), col("NAME", Types.VARCHAR));
        assertThat(digest(derby, List.of(), new Object[] {5L, "ab"})).isNotEqualTo(digest(approx, List.of(), new Object[] {5.0, "ab"}));
    }

    @Test
    void differentRowsOrColumnsDisagree() {
        assertThat(digest(COLS, List.of(), new Object[] {1L, "a"})).isNotEqualTo(digest(COLS, List.of(), new Object[] {1L, "b"}));
        assertThat(digest(COLS, List.of())).isNotEqualTo(digest(List.of(col("ID", Types.INTEGER)), List.of()));
    }

    @Test
    void updateCountsAndGeneratedKeysAreVoted() {
        assertThat(AnswerDigest.updateCount(1, List.of(), List.of())).isEqualTo(AnswerDigest.updateCount(1, List.of(), List.of()));
        assertThat(AnswerDigest.updateCount(1, List.of(), List.of())).isNotEqualTo(AnswerDigest.updateCount(0, List.of(), List.of()));
        List<ColumnInfo> keys = List.of(col("ID", Types.BIGINT));
        assertThat(AnswerDigest.updateCount(1, keys, List.<Object[]>of(new Object[] {7L})))
                .isNotEqualTo(AnswerDigest.updateCount(1, keys, List.<Object[]>of(new Object[] {8L})));
    }

    @Test
    void errorsCompareBySqlStateClassWithRetryCodesAsOneOutcome() {
        assertThat(AnswerDigest.error(new SQLException("dup", "23505"))).isEqualTo(AnswerDigest.error(new SQLException("dup", "23000")));
        assertThat(AnswerDigest.error(new SQLException("dup", "23505"))).isNotEqualTo(AnswerDigest.error(new SQLException("x", "42X05")));
        Ballot derbyTimeout = AnswerDigest.error(new SQLException("lock", "40XL1"));
        Ballot derbyDeadlock = AnswerDigest.error(new SQLException("deadlock", "40001"));
        Ballot pgDeadlock = AnswerDigest.error(new SQLException("deadlock", "40P01"));
        Ballot mariaTimeout = AnswerDigest.error(new SQLException("Lock wait timeout exceeded", "HY000", 1205));
        Ballot mariaDeadlock = AnswerDigest.error(new SQLException("Deadlock found", "40001", 1213));
        Ballot mariaChanged = AnswerDigest.error(new SQLException("Record has changed", "HY000", 1020));
        Ballot derbyTimeout2 = AnswerDigest.error(new SQLException("", "40XL2"));
        assertThat(List.of(derbyDeadlock, pgDeadlock, mariaTimeout, mariaDeadlock, mariaChanged, derbyTimeout2))
                .allMatch(derbyTimeout::equals);
        assertThat(AnswerDigest.error(new SQLException("other", "HY000", 1064))).isNotEqualTo(derbyTimeout);
        assertThat(AnswerDigest.error(new SQLException("x", "23505"))).isNotEqualTo(AnswerDigest.updateCount(0, List.of(), List.of()));
    }

    @Test
    void connectionFailuresAreNotVotes() {
        assertThat(ErrorOutcome.isConnectionFailure(new SQLException("gone", "08006"))).isTrue();
        assertThat(ErrorOutcome.isConnectionFailure(new SQLException("dup", "23505"))).isFalse();
        assertThat(ErrorOutcome.isRetryable(new SQLException("gone", "08S01", 1205))).isFalse();
    }

    @Test
    void everyVendorsLockTimeoutIsTheSameRetryOutcome() {
        String derbyLockTimeout = ErrorOutcome.of(new SQLException("lock timeout", "40XL1"));
        assertThat(derbyLockTimeout).isEqualTo(ErrorOutcome.RETRY);
        assertThat(ErrorOutcome.of(new SQLException("lock_timeout", "55P03"))).isEqualTo(derbyLockTimeout);
        assertThat(ErrorOutcome.of(new SQLException("SQLCODE -913", "57033", -913))).isEqualTo(derbyLockTimeout);
        assertThat(ErrorOutcome.of(new SQLException("wrapped", "XJ001", 0, new SQLException("deadlock", "40001"))))
                .isEqualTo(derbyLockTimeout);
        assertThat(ErrorOutcome.of(new SQLException("dup", "23505"))).isEqualTo("23");
    }
}
