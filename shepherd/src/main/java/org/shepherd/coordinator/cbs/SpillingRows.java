package org.shepherd.coordinator.cbs;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.ValueType;
import org.shepherd.wal.ValueCodec;

/**
 * The primary's rows of an autocommit statement, held until the client reads them (it is answered only after the
 * vote). Rows stay in memory up to {@code memoryBytesMax} (estimated heap use); the rest is appended to a file in
 * the {@link SpillSpace}, read back in order as the client fetches, and deleted when the result is read to its
 * end or closed. Written by one thread ({@link #add}, then {@link #finishWriting}), then read as a cursor.
 */
final class SpillingRows implements ResultCursor {

    /** Disk is reserved from the shared bound in steps of this many bytes. */
    static final long RESERVE_STEP_BYTES = 1L << 20;
    private static final int IO_BUFFER_BYTES = 1 << 16;

    private final SpillSpace space;
    private final List<ColumnInfo> columns;
    private final long memoryBytesMax;
    private final ArrayDeque<Object[]> memory = new ArrayDeque<>();
    private long memoryBytes;
    private Path file;
    private CountingStream counter;
    private DataOutputStream out;
    private long reservedBytes;
    private long fileRows;
    private DataInputStream in;
    private long fileRowsRead;
    private boolean writing = true;
    private boolean closed;

    SpillingRows(SpillSpace space, List<ColumnInfo> columns, long memoryBytesMax) {
        this.space = space;
        this.columns = List.copyOf(columns);
        this.memoryBytesMax = memoryBytesMax;
        space.opened(this);
    }

    /** Appends a row (values in {@link ValueType} representation). Fails with 54000 beyond the disk bound. */
    synchronized void add(Object[] row) throws SQLException {
        if (!writing || closed) throw new IllegalStateException("rows are added before finishWriting() only");
        if (out == null) {
            long size = estimatedHeapBytes(row);
            if (memoryBytes + size <= memoryBytesMax) {
                memory.add(row);
                memoryBytes += size;
                return;
            }
            openFile();
        }
        try {
            for (Object v : row) ValueCodec.writeValue(out, v);
        } catch (IOException e) {
            throw ioFailure("cannot write a held result to " + file, e);
        }
        fileRows++;
        while (counter.count > reservedBytes) {
            long step = Math.max(RESERVE_STEP_BYTES, counter.count - reservedBytes);
            try {
                space.reserve(step);
            } catch (SQLException e) {
                if (step == counter.count - reservedBytes) throw e;
                step = counter.count - reservedBytes;
                space.reserve(step);
            }
            reservedBytes += step;
        }
    }

    /** Every row was added: from now on the rows are read. */
    synchronized void finishWriting() throws SQLException {
        writing = false;
        if (out == null) return;
        try {
            out.close();
            out = null;
            in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), IO_BUFFER_BYTES));
        } catch (IOException e) {
            throw ioFailure("cannot read back a held result from " + file, e);
        }
    }

    /** Rows written to disk so far. */
    synchronized long spilledRows() {
        return fileRows;
    }

    /** The spill file, or null while every row is in memory or after close. */
    synchronized Path file() {
        return file;
    }

    @Override
    public List<ColumnInfo> columns() {
        return columns;
    }

    @Override
    public synchronized List<Object[]> fetch(int maxRows) throws SQLException {
        if (maxRows < 1) throw new IllegalArgumentException("maxRows must be >= 1, was " + maxRows);
        if (closed) throw new SQLException("the result set is closed", "24000");
        if (writing) throw new IllegalStateException("finishWriting() first");
        List<Object[]> batch = new ArrayList<>(Math.min(maxRows, 1024));
        while (batch.size() < maxRows && !memory.isEmpty()) {
            Object[] row = memory.poll();
            memoryBytes -= estimatedHeapBytes(row);
            batch.add(row);
        }
        try {
            while (batch.size() < maxRows && fileRowsRead < fileRows) {
                Object[] row = new Object[columns.size()];
                for (int i = 0; i < row.length; i++) row[i] = ValueCodec.readValue(in);
                fileRowsRead++;
                batch.add(row);
            }
        } catch (IOException e) {
            throw ioFailure("cannot read back a held result from " + file, e);
        }
        if (exhausted()) deleteFile();
        return batch;
    }

    @Override
    public synchronized boolean exhausted() {
        return !writing && memory.isEmpty() && fileRowsRead >= fileRows;
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        memory.clear();
        memoryBytes = 0;
        deleteFile();
        space.closed(this);
    }

    private void openFile() throws SQLException {
        try {
            file = space.newFile();
            counter = new CountingStream(new BufferedOutputStream(Files.newOutputStream(file), IO_BUFFER_BYTES));
            out = new DataOutputStream(counter);
        } catch (IOException e) {
            throw ioFailure("cannot create a file for a held result in "
                    + (space.dir() == null ? "a new temporary directory" : space.dir()), e);
        }
    }

    private void deleteFile() {
        try {
            if (out != null) out.close();
            if (in != null) in.close();
        } catch (IOException e) {
            // the file is deleted next
        }
        out = null;
        in = null;
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // SpillSpace removes it at the latest when the shepherd stops or starts again
            }
            file = null;
        }
        space.release(reservedBytes);
        reservedBytes = 0;
    }

    private static SQLException ioFailure(String what, IOException e) {
        return new SQLException(what + ": " + e.getMessage(), "58030", e);
    }

    /** A rough heap footprint: object headers and references plus each value's payload. */
    static long estimatedHeapBytes(Object[] row) {
        long bytes = 16 + 8L * row.length;
        for (Object v : row) {
            if (v == null) continue;
            if (v instanceof String s) {
                bytes += 56 + 2L * s.length();
            } else if (v instanceof byte[] b) {
                bytes += 16 + b.length;
            } else if (v instanceof BigDecimal d) {
                bytes += 72 + d.unscaledValue().bitLength() / 8;
            } else {
                bytes += 32;
            }
        }
        return bytes;
    }

    /** Counts bytes past {@link Integer#MAX_VALUE} (DataOutputStream's own counter stops there). */
    private static final class CountingStream extends FilterOutputStream {
        long count;

        CountingStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
