package org.shepherd.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;
import org.shepherd.protocol.v1.MessageCodec;
import org.shepherd.protocol.v1.ProtocolException;

/**
 * Turns one frame body (type byte + payload, as cut by the {@code LengthFieldBasedFrameDecoder} before it) into a
 * {@link org.shepherd.protocol.v1.Message} with the driver's codec. Anything that does not parse exactly raises
 * a {@link ProtocolException}.
 */
final class MessageDecoder extends MessageToMessageDecoder<ByteBuf> {

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) throws ProtocolException {
        if (!frame.isReadable()) throw new ProtocolException("invalid frame length 0");
        int type = frame.readUnsignedByte();
        out.add(MessageCodec.decode(type, frame.nioBuffer()));
    }
}
