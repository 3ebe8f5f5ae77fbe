package org.shepherd.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;

/**
 * Fires {@link #IDLE} when a connection has neither received nor sent anything for {@code transaction.idle.timeout.ms}
 * (an answer written counts: a long statement's end restarts the wait); {@link SessionHandler} closes the connection if
 * its session then has a transaction open and no request running.
 */
final class TransactionIdleHandler extends IdleStateHandler {

    /** The event this handler fires instead of Netty's {@link IdleStateEvent}, so that it is not the session idle one. */
    static final Object IDLE = new Object() {
        @Override
        public String toString() {
            return "TransactionIdle";
        }
    };

    TransactionIdleHandler(long timeoutMs) {
        super(true, 0, 0, timeoutMs, TimeUnit.MILLISECONDS);
    }

    @Override
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent evt) {
        ctx.fireUserEventTriggered(IDLE);
    }
}
