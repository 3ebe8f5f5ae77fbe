package org.shepherd.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.shepherd.protocol.auth.Scram;
import org.shepherd.protocol.auth.ScramException;
import org.shepherd.protocol.v1.Message;
import org.shepherd.protocol.v1.MessageCodec;
import org.shepherd.protocol.v1.Protocol;
import org.shepherd.protocol.v1.ProtocolException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The protocol state machine of one connection, on its event loop: version handshake, SCRAM-SHA-256, then
 * every request handed to the connection's {@link ClientSession} (worker threads). Or, as the first frame of a
 * connection, a {@link Message.Cancel} for another session. Never blocks: SCRAM verifiers are precomputed and
 * everything touching the coordinator runs on workers.
 */
final class SessionHandler extends SimpleChannelInboundHandler<Message> {

    private static final Logger LOG = LoggerFactory.getLogger(SessionHandler.class);

    private enum State { STARTUP, SCRAM_FIRST, SCRAM_FINAL, READY, CLOSED }

    private final ShepherdServer server;
    private State state = State.STARTUP;
    private String user;
    private String database;
    private int clientMaxFrameBytes;
    private Scram.Server scram;
    private ClientSession session;
    private ScheduledFuture<?> handshakeTimeout;
    private boolean admitted;
    private boolean failed;

    SessionHandler(ShepherdServer server) {
        this.server = server;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        admitted = server.admit(ctx.channel());
        if (!admitted) {
            fail(ctx, "53300", "too many connections: the shepherd allows " + server.config().sessionsMax()
                    + " (sessions.max)");
            return;
        }
        long ms = server.config().handshakeTimeoutMs();
        handshakeTimeout = ctx.executor().schedule(() -> {
            if (state != State.READY && state != State.CLOSED) {
                fail(ctx, "08P01", "no authenticated session within " + ms + " ms (handshake.timeout.ms)");
            }
        }, ms, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Message m) {
        switch (state) {
            case STARTUP:
                startup(ctx, m);
                break;
            case SCRAM_FIRST:
                scramFirst(ctx, m);
                break;
            case SCRAM_FINAL:
                scramFinal(ctx, m);
                break;
            case READY:
                if (!session.submit(m)) {
                    fail(ctx, "08P01", "more than " + server.config().sessionQueuedRequestsMax()
                            + " requests sent ahead of their answers (session.queued.requests.max)");
                }
                break;
            default:
                break; // closing: late frames are dropped
        }
    }

    private void startup(ChannelHandlerContext ctx, Message m) {
        if (m instanceof Message.Cancel c) {
            state = State.CLOSED;
            server.cancel(c.sessionId(), c.cancelKey());
            ctx.close();
            return;
        }
        if (!(m instanceof Message.Startup s)) {
            fail(ctx, "08P01", "expected Startup or Cancel as the first message, got " + m.type());
            return;
        }
        if (s.protocolMajor() != Protocol.MAJOR) {
            fail(ctx, "08004", "unsupported protocol version " + s.protocolMajor() + "." + s.protocolMinor()
                    + "; this shepherd speaks " + Protocol.MAJOR + "." + Protocol.MINOR);
            return;
        }
        user = s.user();
        database = s.database();
        clientMaxFrameBytes = ClientSession.clientMaxFrameBytes(s.properties(), server.config().maxFrameBytes());
        state = State.SCRAM_FIRST;
        write(ctx, new Message.AuthRequest(Protocol.MAJOR, Math.min(s.protocolMinor(), Protocol.MINOR),
                List.of(Protocol.SCRAM_SHA_256)));
    }

    private void scramFirst(ChannelHandlerContext ctx, Message m) {
        if (!(m instanceof Message.ScramClientFirst f)) {
            fail(ctx, "08P01", "expected ScramClientFirst, got " + m.type());
            return;
        }
        if (!Protocol.SCRAM_SHA_256.equals(f.mechanism())) {
            fail(ctx, "28000", "unsupported authentication mechanism " + f.mechanism() + "; use " + Protocol.SCRAM_SHA_256);
            return;
        }
        scram = server.authenticator().exchangeFor(user);
        try {
            String serverFirst = scram.serverFirstMessage(f.message());
            if (!user.equals(scram.user())) {
                fail(ctx, "28000", "the SCRAM user must be the Startup user " + user);
                return;
            }
            state = State.SCRAM_FINAL;
            write(ctx, new Message.ScramServerFirst(serverFirst));
        } catch (ScramException | RuntimeException e) {
            fail(ctx, "28000", "invalid SCRAM client-first message: " + e.getMessage());
        }
    }

    private void scramFinal(ChannelHandlerContext ctx, Message m) {
        if (!(m instanceof Message.ScramClientFinal f)) {
            fail(ctx, "08P01", "expected ScramClientFinal, got " + m.type());
            return;
        }
        String serverFinal;
        try {
            serverFinal = scram.serverFinalMessage(f.message());
        } catch (ScramException | RuntimeException e) {
            LOG.info("authentication failed for user {} from {}", user, ctx.channel().remoteAddress());
            fail(ctx, "28P01", "password authentication failed for user \"" + user + "\"");
            return;
        }
        scram = null;
        if (handshakeTimeout != null) handshakeTimeout.cancel(false);
        write(ctx, new Message.ScramServerFinal(serverFinal));
        session = server.register(ctx.channel(), clientMaxFrameBytes);
        state = State.READY;
        session.open(user, database);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (session != null && ctx.channel().isWritable()) session.resume();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event == TransactionIdleHandler.IDLE) {
            if (state == State.READY && session.idle() && session.inTransaction()) {
                LOG.info("closing session {} of {}: its transaction was idle for {} ms (transaction.idle.timeout.ms)",
                        session.sessionId, user, server.config().transactionIdleTimeoutMs());
                fail(ctx, "25P03", "connection closed: its transaction stayed open and idle for "
                        + server.config().transactionIdleTimeoutMs() + " ms (transaction.idle.timeout.ms) and was rolled"
                        + " back on every replica; commit or roll back promptly");
            }
            return;
        }
        if (event instanceof IdleStateEvent && (session == null || session.idle())) {
            fail(ctx, "57P05", "connection closed after " + server.config().sessionIdleTimeoutMs()
                    + " ms without requests (session.idle.timeout.ms)");
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        state = State.CLOSED;
        if (handshakeTimeout != null) handshakeTimeout.cancel(false);
        if (session != null) session.disconnected();
        if (admitted) server.release(ctx.channel());
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (c instanceof ProtocolException || c instanceof TooLongFrameException || c instanceof CorruptedFrameException
                || cause instanceof DecoderException) {
            LOG.info("protocol violation from {}: {}", ctx.channel().remoteAddress(), c.getMessage());
            fail(ctx, "08P01", "protocol violation: " + c.getMessage());
        } else if (c instanceof IOException) {
            LOG.debug("connection {} failed: {}", ctx.channel().remoteAddress(), c.getMessage());
            state = State.CLOSED;
            ctx.close();
        } else {
            LOG.warn("unexpected failure on connection {}", ctx.channel().remoteAddress(), c);
            fail(ctx, "XX000", "internal error in the shepherd: " + c);
        }
    }

    /** Answers an Error and closes the connection; what the client sends afterwards is ignored. */
    private void fail(ChannelHandlerContext ctx, String sqlState, String message) {
        if (failed) return;
        failed = true;
        state = State.CLOSED;
        ctx.channel().config().setAutoRead(false);
        ctx.writeAndFlush(Unpooled.wrappedBuffer(MessageCodec.encodeFrame(new Message.Error(sqlState, 0, message))))
                .addListener(ChannelFutureListener.CLOSE);
    }

    private static void write(ChannelHandlerContext ctx, Message m) {
        ctx.writeAndFlush(Unpooled.wrappedBuffer(MessageCodec.encodeFrame(m)));
    }
}
