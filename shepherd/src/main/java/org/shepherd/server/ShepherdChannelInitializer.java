package org.shepherd.server;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;
import org.shepherd.protocol.v1.Protocol;

/**
 * The pipeline of one client connection: [TLS] → [idle timer] → framing (int32 length, bounded by
 * {@code protocol.max.frame.bytes}) → message decoding → {@link SessionHandler}. Answers are written as
 * ready-made frames by the session, so no encoder is needed.
 */
final class ShepherdChannelInitializer extends ChannelInitializer<SocketChannel> {

    private final ShepherdServer server;
    private final SslContext ssl;

    ShepherdChannelInitializer(ShepherdServer server, SslContext ssl) {
        this.server = server;
        this.ssl = ssl;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ChannelPipeline p = ch.pipeline();
        if (ssl != null) p.addLast("tls", ssl.newHandler(ch.alloc()));
        long idleMs = server.config().sessionIdleTimeoutMs();
        if (idleMs > 0) p.addLast("idle", new IdleStateHandler(idleMs, 0, 0, TimeUnit.MILLISECONDS));
        long txIdleMs = server.config().transactionIdleTimeoutMs();
        if (txIdleMs > 0) p.addLast("transaction-idle", new TransactionIdleHandler(txIdleMs));
        int lengthFieldBytes = Protocol.HEADER_BYTES - 1;
        p.addLast("frames", new LengthFieldBasedFrameDecoder(server.config().maxFrameBytes() + lengthFieldBytes,
                0, lengthFieldBytes, 0, lengthFieldBytes, true));
        p.addLast("messages", new MessageDecoder());
        p.addLast("session", new SessionHandler(server));
    }
}
