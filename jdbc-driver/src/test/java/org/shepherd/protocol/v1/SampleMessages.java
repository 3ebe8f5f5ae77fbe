package org.shepherd.protocol.v1;

import java.math.BigDecimal;
import java.sql.ResultSetMetaData;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;

/** At least one instance of every message type, with every value type and the nullable fields both ways. */
final class SampleMessages {

    private SampleMessages() {
    }

    static Object[] everyValue() {
        return new Object[] {
            null, true, false, Long.MIN_VALUE, 42L, new BigDecimal("-12345678901234567890.000123"), BigDecimal.ZERO,
            new BigDecimal("1E+5"), Math.PI, Double.NaN, -0.0d, "", "grüße, 世界 \uD83D\uDE00", new byte[0],
            new byte[] {0, -1, 127}, LocalDate.of(1, 1, 1), LocalDate.of(9999, 12, 31), LocalTime.MIDNIGHT,
            LocalTime.of(23, 59, 59, 999_999_999), LocalDateTime.of(2026, 11, 21, 8, 30, 1, 123_456_789),
            OffsetDateTime.of(1969, 12, 31, 23, 0, 0, 1, ZoneOffset.ofHoursMinutes(-5, -30)),
        };
    }

    static List<Param> everyParam() {
        List<Param> out = new ArrayList<>();
        for (Object v : everyValue()) out.add(new Param(Types.OTHER, v));
        out.add(Param.nullOf(Types.INTEGER));
        return out;
    }

    static List<ColumnInfo> columns(int n) {
        List<ColumnInfo> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ColumnInfo("C" + i, "c" + i, Types.VARCHAR, "VARCHAR", 10 + i, i, ResultSetMetaData.columnNullable,
                    i % 2 == 0 ? "T" : "", i == 0));
        }
        return out;
    }

    static List<Message> all() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("applicationName", "test");
        props.put("fetchSize", "10");
        StatementOptions opts = new StatementOptions(100, 50, 7, true);
        Object[] row = everyValue();
        List<Object[]> rows = List.of(row, row.clone());
        List<WarningInfo> warnings = List.of(new WarningInfo("01000", 3, "careful"), new WarningInfo("", 0, ""));
        List<Object> metaArgs = Arrays.asList(null, "APP", "T%", new String[] {"TABLE", "VIEW"}, 3, true);
        return List.of(
                new Message.Startup(1, 0, "alice", "db", props),
                new Message.Startup(1, 0, "", "", Map.of()),
                new Message.AuthRequest(1, 0, List.of(Protocol.SCRAM_SHA_256)),
                new Message.ScramClientFirst(Protocol.SCRAM_SHA_256, "n,,n=user,r=abc"),
                new Message.ScramServerFirst("r=abcdef,s=c2FsdA==,i=4096"),
                new Message.ScramClientFinal("c=biws,r=abcdef,p=cHJvb2Y="),
                new Message.ScramServerFinal("v=c2ln"),
                new Message.Ready(7L, -1234567890123L, "0.1.0", "derby", "\"", "Apache Derby", "10.16.1.1"),
                new Message.Cancel(7L, -1234567890123L),
                new Message.Execute("SELECT * FROM t WHERE a = ?", everyParam(), opts),
                new Message.Execute("", List.of(), StatementOptions.DEFAULT),
                new Message.Prepare("INSERT INTO t VALUES (?, ?)"),
                new Message.PrepareOk(3, 2, new int[] {Types.INTEGER, Types.VARCHAR}, columns(2)),
                new Message.PrepareOk(4, -1, null, null),
                new Message.ExecutePrepared(3, everyParam(), opts),
                new Message.ClosePrepared(3),
                new Message.ExecuteBatch("INSERT INTO t VALUES (?)", List.of(everyParam(), List.of()), List.of(), opts),
                new Message.ExecuteBatch(null, List.of(), List.of("DELETE FROM t", "INSERT INTO t VALUES (1)"), opts),
                new Message.BatchResult(new long[] {1, 0, -2, Long.MAX_VALUE}, warnings),
                new Message.BatchResult(new long[] {1, 2}, columns(row.length), rows, warnings),
                new Message.ResultHeader(9, columns(row.length), warnings),
                new Message.ResultHeader(9, columns(1), List.of()),
                new Message.RowBatch(9, rows, false),
                new Message.RowBatch(9, List.of(), true),
                new Message.Fetch(9, 1000),
                new Message.CloseCursor(9),
                new Message.UpdateResult(5, columns(row.length), rows, warnings),
                new Message.UpdateResult(0, List.of(), List.of(), List.of()),
                new Message.Metadata("getTables", metaArgs),
                new Message.Metadata("getTypeInfo", List.of()),
                new Message.Error("40001", 0, "commit aborted: replicas disagreed"),
                new Message.Error("22001", 17, "batch element 3 failed", new long[] {1, 1, 1}),
                new Message.Commit(),
                new Message.Rollback(),
                new Message.SetAutoCommit(false),
                new Message.SetAutoCommit(true),
                new Message.SetReadOnly(true),
                new Message.Ok(),
                new Message.Ok(warnings),
                new Message.Ping(),
                new Message.Pong(),
                new Message.Terminate());
    }
}
