package org.shepherd.protocol.v1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class MessageCodecTest {

    private static final int MAX = Protocol.DEFAULT_MAX_FRAME_BYTES;

    @Test
    void samplesCoverEveryMessageType() {
        Set<MessageType> covered = SampleMessages.all().stream().map(Message::type).collect(Collectors.toSet());
        assertThat(covered).isEqualTo(EnumSet.allOf(MessageType.class));
    }

    @Test
    void everyMessageRoundTrips() throws Exception {
        for (Message m : SampleMessages.all()) {
            byte[] frame = MessageCodec.encodeFrame(m);
            assertThat(ByteBuffer.wrap(frame).getInt()).as("length field of %s", m.type()).isEqualTo(frame.length - 4);
            assertThat(frame[4] & 0xff).isEqualTo(m.type().code());
            Message back = MessageCodec.decodeFrame(ByteBuffer.wrap(frame), MAX);
            assertThat(back).as("%s", m.type()).usingRecursiveComparison()
                    .withComparatorForType(Double::compare, Double.class).isEqualTo(m);
            assertThat(MessageCodec.encodeFrame(back)).as("re-encoding of %s", m.type()).isEqualTo(frame);
        }
    }

    @Test
    void stringsMustBeValidUtf8() throws Exception {
        ByteBuffer bad = ByteBuffer.allocate(6).putInt(2).put((byte) 0xC3).put((byte) 0x28).flip();
        assertThatThrownBy(() -> MessageCodec.decode(MessageType.PREPARE.code(), bad))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("UTF-8");
        byte[] replacement = "a\uFFFDb".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ByteBuffer ok = ByteBuffer.allocate(4 + replacement.length).putInt(replacement.length).put(replacement).flip();
        assertThat(((Message.Prepare) MessageCodec.decode(MessageType.PREPARE.code(), ok)).sql()).isEqualTo("a\uFFFDb");
    }

    @Test
    void nullInANonNullableStringFieldIsRefusedWhenEncoding() {
        assertThatThrownBy(() -> MessageCodec.encodeFrame(new Message.Prepare(null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not nullable");
    }

    @Test
    void encodeToStreamWritesTheFrame() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MessageCodec.encode(new Message.Fetch(1, 2), out);
        assertThat(out.toByteArray()).isEqualTo(MessageCodec.encodeFrame(new Message.Fetch(1, 2)));
        ByteBuffer buf = ByteBuffer.allocate(64);
        MessageCodec.encode(new Message.Fetch(1, 2), buf);
        assertThat(Arrays.copyOf(buf.array(), buf.position())).isEqualTo(out.toByteArray());
    }

    @Test
    void everyFrameSplitAtEveryByteDecodesIdentically() throws Exception {
        for (Message m : SampleMessages.all()) {
            byte[] frame = MessageCodec.encodeFrame(m);
            for (int split = 0; split <= frame.length; split++) {
                FrameReader reader = new FrameReader(MAX);
                reader.feed(frame, 0, split);
                Message first = reader.next();
                if (split < frame.length) {
                    assertThat(first).as("%s split at %d", m.type(), split).isNull();
                    reader.feed(ByteBuffer.wrap(frame, split, frame.length - split));
                    first = reader.next();
                }
                assertThat(MessageCodec.encodeFrame(first)).as("%s split at %d", m.type(), split).isEqualTo(frame);
                assertThat(reader.next()).isNull();
                assertThat(reader.buffered()).isZero();
            }
        }
    }

    @Test
    void aStreamOfAllFramesFedByteByByteDecodesInOrder() throws Exception {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        List<Message> messages = SampleMessages.all();
        for (Message m : messages) MessageCodec.encode(m, all);
        byte[] bytes = all.toByteArray();
        FrameReader reader = new FrameReader(MAX);
        int i = 0;
        for (byte b : bytes) {
            reader.feed(new byte[] {b}, 0, 1);
            Message m = reader.next();
            if (m != null) {
                assertThat(MessageCodec.encodeFrame(m)).isEqualTo(MessageCodec.encodeFrame(messages.get(i++)));
            }
        }
        assertThat(i).isEqualTo(messages.size());
    }

    @Test
    void everyTruncatedPayloadIsAProtocolException() {
        for (Message m : SampleMessages.all()) {
            byte[] frame = MessageCodec.encodeFrame(m);
            for (int len = 0; len < frame.length - 5; len++) {
                ByteBuffer payload = ByteBuffer.wrap(frame, 5, len);
                assertThatThrownBy(() -> MessageCodec.decode(m.type().code(), payload))
                        .as("%s truncated to %d payload bytes", m.type(), len)
                        .isInstanceOf(ProtocolException.class);
            }
            for (int len = 0; len < frame.length; len++) {
                ByteBuffer prefix = ByteBuffer.wrap(frame, 0, len);
                assertThatThrownBy(() -> MessageCodec.decodeFrame(prefix, MAX)).isInstanceOf(ProtocolException.class);
            }
        }
    }

    @Test
    void trailingBytesAreAProtocolException() {
        byte[] frame = MessageCodec.encodeFrame(new Message.Fetch(1, 10));
        byte[] longer = Arrays.copyOf(frame, frame.length + 1);
        ByteBuffer.wrap(longer).putInt(frame.length + 1 - 4);
        assertThatThrownBy(() -> MessageCodec.decodeFrame(ByteBuffer.wrap(longer), MAX))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("unexpected bytes");
    }

    @Test
    void oversizedNegativeAndEmptyLengthsAreRejectedFromTheHeaderAlone() {
        for (int length : new int[] {MAX + 1, Integer.MAX_VALUE, -1, Integer.MIN_VALUE, 0}) {
            FrameReader reader = new FrameReader(MAX);
            reader.feed(ByteBuffer.allocate(4).putInt(length).flip());
            assertThatThrownBy(reader::next).as("length %d", length).isInstanceOf(ProtocolException.class)
                    .hasMessageContaining("frame");
        }
        FrameReader small = new FrameReader(16);
        small.feed(MessageCodec.encodeFrame(new Message.Prepare("SELECT 1 FROM SYSIBM.SYSDUMMY1")), 0, 4);
        assertThatThrownBy(small::next).isInstanceOf(ProtocolException.class).hasMessageContaining("maximum of 16");
    }

    @Test
    void unknownMessageTypesAreRejected() {
        for (int type : new int[] {0, 5, 63, 79, 255}) {
            FrameReader reader = new FrameReader(MAX);
            reader.feed(new byte[] {0, 0, 0, 1, (byte) type}, 0, 5);
            assertThatThrownBy(reader::next).isInstanceOf(ProtocolException.class)
                    .hasMessageContaining("unknown message type " + type);
        }
    }

    @Test
    void badMagicIsRejected() {
        byte[] frame = MessageCodec.encodeFrame(new Message.Startup(1, 0, "u", "d", java.util.Map.of()));
        frame[5] = 'G'; // "GHEP..." e.g. an HTTP client
        assertThatThrownBy(() -> MessageCodec.decodeFrame(ByteBuffer.wrap(frame), MAX))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("magic");
    }

    @Test
    void hugeInnerLengthsNeverAllocate() {
        // a string claiming 2 GiB inside a tiny frame
        ByteBuffer payload = ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).putInt(0).flip();
        assertThatThrownBy(() -> MessageCodec.decode(MessageType.PREPARE.code(), payload))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("truncated");
        ByteBuffer rows = ByteBuffer.allocate(13).putInt(1).putInt(0).putInt(Integer.MAX_VALUE).put((byte) 0).flip();
        assertThatThrownBy(() -> MessageCodec.decode(MessageType.ROW_BATCH.code(), rows))
                .isInstanceOf(ProtocolException.class);
    }

    @Test
    void garbledPayloadsGiveAProtocolExceptionOrAMessageNeverAnythingElse() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        List<Message> samples = SampleMessages.all();
        for (int round = 0; round < 20_000; round++) {
            Message m = samples.get(random.nextInt(samples.size()));
            byte[] frame = MessageCodec.encodeFrame(m);
            if (frame.length == 5) continue;
            int flips = 1 + random.nextInt(4);
            for (int f = 0; f < flips; f++) {
                int at = 5 + random.nextInt(frame.length - 5);
                frame[at] = random.nextInt(3) == 0 ? (byte) 0xff : (byte) random.nextInt(256);
            }
            FrameReader reader = new FrameReader(MAX);
            reader.feed(frame, 0, frame.length);
            try {
                reader.next();
            } catch (ProtocolException expected) {
                assertThat(expected.getMessage()).isNotBlank();
            } catch (Throwable t) {
                fail("seed " + seed + ", round " + round + ", " + m.type() + ": unexpected " + t, t);
            }
        }
    }
}
