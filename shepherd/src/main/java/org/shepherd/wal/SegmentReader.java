package org.shepherd.wal;

import static org.shepherd.wal.WalFormat.FRAME_HEADER_BYTES;
import static org.shepherd.wal.WalFormat.PAYLOAD_BYTES_MAX;
import static org.shepherd.wal.WalFormat.SEGMENT_HEADER_BYTES;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the records of one segment file at open and tells a torn tail (what a crash in the middle of a write leaves in
 * the last segment) from damage. The rules, also in docs/wal-format.md: in the last segment, the bytes from the first
 * frame that cannot be read to the end of the file are a torn tail when
 * <ol>
 *   <li>fewer bytes than a frame header remain, or</li>
 *   <li>the frame header passes its check and the payload is cut off by the end of the file, or the frame is the last
 *       of the file and its payload fails the CRC, or</li>
 *   <li>the frame header fails its check and only zero bytes follow it.</li>
 * </ol>
 * Anything else, and any bad frame in an earlier segment, is damage: it may have lost acknowledged commits.
 */
final class SegmentReader {

    private static final int READ_BUFFER_BYTES = 1 << 16;

    /**
     * What one segment holds (its records went to the reader's sink, in order).
     *
     * @param barriers its records' barriers, ascending
     * @param lastTxId the highest transaction id of its records, -1 for none
     * @param validBytes the end of its last good frame
     * @param tornTail why the bytes from validBytes to fileBytes are a torn tail, null when there are none
     */
    record Scan(Path file, long[] barriers, long lastTxId, long validBytes, long fileBytes, String tornTail) {
    }

    private final Path file;
    private final long firstBarrier;
    private final boolean last;
    private final long sizeBytes;
    private final DataInputStream in;
    private long position;
    /** The payload of the frame {@link #nextFrameProblem} read last. */
    private byte[] payload;

    private SegmentReader(Path file, long firstBarrier, boolean last) throws IOException {
        this.file = file;
        this.firstBarrier = firstBarrier;
        this.last = last;
        this.sizeBytes = Files.size(file);
        this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), READ_BUFFER_BYTES));
    }

    /**
     * Reads {@code file}.
     *
     * @param firstBarrier the barrier its name stands for: its first record must have it
     * @param last whether it is the newest segment, the only one that may end in a torn tail
     * @param barrierBefore the last barrier of the segments before it, -1 for none: its records must be above it
     * @param sink gets each good record, in order (not those of a torn tail)
     */
    static Scan read(Path file, long firstBarrier, boolean last, long barrierBefore,
            java.util.function.Consumer<WalRecord> sink) throws IOException {
        SegmentReader reader = new SegmentReader(file, firstBarrier, last);
        try {
            return reader.read(barrierBefore, sink);
        } finally {
            reader.in.close();
        }
    }

    /**
     * What {@link #readAfter} read: the records, and where in the file the frame after the last of them starts.
     */
    record Read(List<WalRecord> records, long endOffset) {
    }

    /**
     * The records of {@code file} with a barrier above {@code afterBarrier}, at most {@code max}, read from
     * {@code fromOffset} (a frame start; 0: the file's start) while the shepherd runs: the newest segment may end in a
     * frame being written, which ends the read; records at or below the barrier are not decoded.
     */
    static Read readAfter(Path file, long firstBarrier, boolean newest, long afterBarrier, int max, long fromOffset)
            throws IOException {
        SegmentReader reader = new SegmentReader(file, firstBarrier, newest);
        try {
            return reader.readAfter(afterBarrier, max, fromOffset);
        } finally {
            reader.in.close();
        }
    }

    private Read readAfter(long afterBarrier, int max, long fromOffset) throws IOException {
        List<WalRecord> records = new ArrayList<>();
        if (fromOffset > 0) {
            in.skipNBytes(fromOffset);
            position = fromOffset;
        } else {
            if (readSegmentHeader() != null) return new Read(records, 0); // being created
        }
        long end = position;
        while (position < sizeBytes && records.size() < max) {
            long frameStart = position;
            if (nextFrameProblem() != null) break; // the frame being written
            if (WalFormat.barrierOf(payload) > afterBarrier) records.add(record(frameStart));
            end = position;
        }
        return new Read(records, end);
    }

    private Scan read(long barrierBefore, java.util.function.Consumer<WalRecord> sink) throws IOException {
        java.util.stream.LongStream.Builder barriers = java.util.stream.LongStream.builder();
        long lastTxId = -1;
        int count = 0;
        byte[] cutOff = readSegmentHeader();
        if (cutOff != null) {
            if (last && WalFormat.isCutOffHeader(cutOff)) return scan(barriers, -1, 0, "the segment header is cut off");
            throw damaged(0, "the file is shorter than a segment header (" + cutOff.length + " bytes)");
        }
        long barrier = barrierBefore;
        while (position < sizeBytes) {
            long frameStart = position;
            String torn = nextFrameProblem();
            if (torn != null) return scan(barriers, lastTxId, frameStart, torn);
            WalRecord r = record(frameStart);
            if (count == 0 && r.barrier() != firstBarrier) {
                throw damaged(frameStart, "the first record has barrier " + r.barrier() + ", the file name says " + firstBarrier);
            }
            if (r.barrier() <= barrier) {
                throw damaged(frameStart, "barrier " + r.barrier() + " follows barrier " + barrier + " (barriers must increase)");
            }
            barrier = r.barrier();
            count++;
            barriers.add(r.barrier());
            lastTxId = Math.max(lastTxId, r.txId());
            sink.accept(r);
        }
        if (count == 0 && !last) throw damaged(position, "a segment that is not the newest holds no record");
        return scan(barriers, lastTxId, position, null);
    }

    /**
     * Reads the segment header: null when it is whole and good; the bytes there are when the file ends before it (the
     * caller tells a segment being created, or cut off by a crash, from damage); throws when it is damaged.
     */
    private byte[] readSegmentHeader() throws IOException {
        byte[] header = in.readNBytes(SEGMENT_HEADER_BYTES);
        position = header.length;
        if (header.length < SEGMENT_HEADER_BYTES) return header;
        String problem = WalFormat.headerProblem(header);
        if (problem != null) throw damaged(0, problem);
        return null;
    }

    private Scan scan(java.util.stream.LongStream.Builder barriers, long lastTxId, long validBytes, String tornTail) {
        return new Scan(file, barriers.build().toArray(), lastTxId, validBytes, sizeBytes, tornTail);
    }

    /**
     * Reads the frame at {@link #position} into {@link #payload}: null when it is good, why the rest of the file is a
     * torn tail when it is one; throws when it is damage.
     */
    private String nextFrameProblem() throws IOException {
        long frameStart = position;
        if (sizeBytes - frameStart < FRAME_HEADER_BYTES) return tornOrDamaged(frameStart, "a frame header is cut off");
        byte[] header = new byte[FRAME_HEADER_BYTES];
        in.readFully(header);
        position += FRAME_HEADER_BYTES;
        ByteBuffer h = ByteBuffer.wrap(header);
        long payloadBytes = Integer.toUnsignedLong(h.getInt(0));
        if (h.getInt(8) != WalFormat.crc32c(header, 0, 8)) {
            if (last && onlyZerosFollow()) return "a frame header fails its check and only zero bytes follow";
            throw damaged(frameStart, "a frame header fails its check");
        }
        if (payloadBytes == 0 || payloadBytes > PAYLOAD_BYTES_MAX) {
            throw damaged(frameStart, "a frame's payload length " + payloadBytes + " is outside 1.." + PAYLOAD_BYTES_MAX);
        }
        long frameEnd = position + payloadBytes;
        if (frameEnd > sizeBytes) return tornOrDamaged(frameStart, "a frame is cut off by the end of the file");
        payload = new byte[(int) payloadBytes];
        in.readFully(payload);
        position = frameEnd;
        if (h.getInt(4) != WalFormat.crc32c(payload, 0, payload.length)) {
            if (frameEnd == sizeBytes) return tornOrDamaged(frameStart, "the file's last frame fails its CRC");
            throw damaged(frameStart, "a frame fails its CRC and more data follows it");
        }
        return null;
    }

    private WalRecord record(long frameStart) throws IOException {
        try {
            return WalFormat.decode(payload);
        } catch (IOException e) {
            throw damaged(frameStart, "a frame's CRC matches but its record cannot be read: " + e.getMessage());
        }
    }

    private String tornOrDamaged(long frameStart, String what) throws WalDamagedException {
        if (last) return what;
        throw damaged(frameStart, what + " in a segment that is not the newest");
    }

    private boolean onlyZerosFollow() throws IOException {
        for (int b = in.read(); b >= 0; b = in.read()) {
            if (b != 0) return false;
        }
        return true;
    }

    private WalDamagedException damaged(long offsetBytes, String problem) {
        return new WalDamagedException(file, offsetBytes, problem);
    }
}
