package org.shepherd.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.shepherd.client.Cursor;

/** Every method of the unsupported base classes throws SQLFeatureNotSupportedException naming itself. */
class UnsupportedMethodsTest {

    @Test
    void resultSetMethodsNameThemselves() throws Exception {
        ShepherdResultSet rs = new ShepherdResultSet(null, Cursor.of(List.of(), List.of()));
        assertEveryMethodNamesItself(AbstractUnsupportedResultSet.class, rs, "ResultSet.");
    }

    @Test
    void connectionStatementAndPreparedStatementMethodsNameThemselves() throws Exception {
        try (ScriptedServer server = new ScriptedServer((req, c) -> ScriptedServer.one(new org.shepherd.protocol.v1.Message.Ok()));
             ShepherdConnection conn = (ShepherdConnection) new ShepherdDriver().connect(server.url(), null)) {
            assertEveryMethodNamesItself(AbstractUnsupportedConnection.class, conn, "Connection.");
            assertEveryMethodNamesItself(AbstractUnsupportedStatement.class, conn.createStatement(), "Statement.");
            assertEveryMethodNamesItself(AbstractUnsupportedPreparedStatement.class, conn.prepareStatement("SELECT ?"),
                    "PreparedStatement.");
        }
    }

    private static void assertEveryMethodNamesItself(Class<?> base, Object target, String prefix) throws Exception {
        int checked = 0;
        for (Method m : base.getDeclaredMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.isSynthetic()) continue;
            Object[] args = new Object[m.getParameterCount()];
            Class<?>[] types = m.getParameterTypes();
            for (int i = 0; i < args.length; i++) args[i] = defaultValue(types[i]);
            try {
                m.invoke(target, args);
                throw new AssertionError(m + " did not throw");
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                assertThat(cause).as(m.toString()).isInstanceOf(SQLException.class);
                if (!(cause instanceof java.sql.SQLClientInfoException)) {
                    assertThat(cause).as(m.toString()).isInstanceOf(SQLFeatureNotSupportedException.class);
                }
                assertThat(cause.getMessage()).as(m.toString()).startsWith(prefix + m.getName())
                        .endsWith("is not supported by Shepherd");
            }
            checked++;
        }
        assertThat(checked).isPositive();
    }

    private static Object defaultValue(Class<?> t) {
        if (t == int.class) return 1;
        if (t == long.class) return 1L;
        if (t == boolean.class) return false;
        if (t == double.class) return 0d;
        if (t == float.class) return 0f;
        if (t == short.class) return (short) 0;
        if (t == byte.class) return (byte) 0;
        return null;
    }
}
