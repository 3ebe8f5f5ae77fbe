package org.shepherd.translator;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.alter.AlterExpression;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.ForeignKeyIndex;
import net.sf.jsqlparser.statement.create.table.Index;
import org.shepherd.translator.dialect.Dialect;

/**
 * Names the client wrote unquoted that the target engine reserves ({@link Dialect#reservesWord}): a MySQL table's
 * column {@code year}, {@code end} or {@code user} is a syntax error on Derby, {@code user} on PostgreSQL means
 * CURRENT_USER. For the time of one rendering each such name is quoted in the target's case (upper case on Derby,
 * HSQLDB and Db2, lower case on PostgreSQL, as written on MySQL and MariaDB), which is the very name the engine would
 * have made of it unquoted; so quoting changes nothing else, and the catalog (which compares names without quotes and
 * case) sees the same name. A word the client's own engine reserves is a keyword the parser read as a name (MySQL's
 * DEFAULT in VALUES), never quoted; nor is a register the translator pins (HSQLDB's NOW).
 *
 * <p>The names are found by walking the statement's tree (its columns, tables, aliases, column definitions and index
 * columns), not by a visitor per statement kind, so that every place a name may stand is covered.
 */
final class ReservedNames {

    private static final String PARSER_PACKAGE = "net.sf.jsqlparser.parser";

    /**
     * A tree class's fields that may hold names (not static, not primitive, its superclasses' too), made accessible once
     * per class: a statement is walked at each rendering, and an INSERT given explicit keys is rendered per execution.
     */
    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) continue;
                    try {
                        f.setAccessible(true);
                        fields.add(f);
                    } catch (RuntimeException inaccessible) {
                        // not reachable: holds no names of the statement
                    }
                }
            }
            return List.copyOf(fields);
        }
    };

    private ReservedNames() {
    }

    /** Quotes the names in {@code ast} that {@code target} reserves; run the returned actions to put them back. */
    static List<Runnable> quote(Object ast, Dialect client, Dialect target) {
        List<Runnable> undo = new ArrayList<>();
        if (ast == null || target.reservedWords().isEmpty()) return undo;
        new Walk(name -> quoted(name, client, target), undo) {
            @Override
            boolean isPinned(Column column) {
                return Renderer.pinnedName(column, client) != null;
            }
        }.visit(ast);
        return undo;
    }

    /**
     * Makes a column of each bare {@code CURRENT} in {@code ast} where the client's engine takes that word as a name:
     * JSqlParser reads it as a clock without its DATE/TIME/TIMESTAMP, which no engine has, while a MySQL or PostgreSQL
     * column may be named {@code current}. Once, after the parse; a client whose engine reserves the word keeps it.
     */
    static void bareCurrentAsColumn(Object ast, Dialect client) {
        if (ast == null || client.reservesWord("CURRENT")) return;
        Walk walk = new Walk(name -> null, null) {
            @Override
            Object replaced(Object child) {
                return child instanceof TimeKeyExpression key && "CURRENT".equalsIgnoreCase(key.getStringValue().strip())
                        ? new Column(key.getStringValue().strip()) : child;
            }
        };
        walk.visit(ast);
    }

    /**
     * Writes each name of {@code ast} in backticks whose word is one of {@code words} without them, for good: the
     * words the translator quoted so that the parser would read them as names ({@link Translator#parse(String, Dialect,
     * long)}), which the client wrote unquoted and which every target must fold as it folds any unquoted name.
     */
    static void unquoteWords(Object ast, Set<String> words) {
        Function<String, String> unquoted = name -> name.length() > 2 && name.charAt(0) == '`'
                && name.charAt(name.length() - 1) == '`' && words.contains(name.substring(1, name.length() - 1))
                ? name.substring(1, name.length() - 1) : null;
        new Walk(unquoted, null).visit(ast);
    }

    /** {@code name}, quoted where {@code target} reserves it (for names the tree holds where no setter reaches). */
    static String name(String name, Dialect client, Dialect target) {
        String q = quoted(name, client, target);
        return q == null ? name : q;
    }

    /** The name as the target would fold it, quoted; null when it needs no quotes there. */
    static String quoted(String name, Dialect client, Dialect target) {
        if (name == null || name.isEmpty() || !isBare(name) || !target.reservesWord(name) || client.reservesWord(name)) {
            return null;
        }
        switch (target.family()) {
            case MYSQL:
                return "`" + name + "`";
            case POSTGRESQL:
                return "\"" + name.toLowerCase(Locale.ROOT) + "\"";
            default:
                return "\"" + name.toUpperCase(Locale.ROOT) + "\"";
        }
    }

    static boolean isBare(String name) {
        char first = name.charAt(0);
        if (!(Character.isLetter(first) || first == '_')) return false;
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '$')) return false;
        }
        return true;
    }

    /** Visits every node of a tree and renames its names; subclasses may put other nodes in place of some. */
    private static class Walk {
        private final Function<String, String> renamed;
        private final List<Runnable> undo;
        private final Set<Object> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

        /**
         * @param renamed a name's new text, or null to keep it
         * @param undo where to add an action that puts a renamed name back; null to rename for good
         */
        Walk(Function<String, String> renamed, List<Runnable> undo) {
            this.renamed = renamed;
            this.undo = undo;
        }

        void visit(Object node) {
            if (node == null || node instanceof String || node instanceof Number || node instanceof Boolean
                    || node instanceof Enum<?> || !seen.add(node)) {
                return;
            }
            if (node instanceof List<?> items) {
                for (int i = 0; i < items.size(); i++) {
                    Object item = items.get(i);
                    Object with = replaced(item);
                    if (with != item) set(items, i, with);
                    visit(with);
                }
                return;
            }
            if (node instanceof Collection<?> items) {
                items.forEach(this::visit);
                return;
            }
            if (node instanceof Map<?, ?> map) {
                map.values().forEach(this::visit);
                return;
            }
            if (node.getClass().isArray()) {
                if (!node.getClass().getComponentType().isPrimitive()) {
                    for (int i = 0; i < Array.getLength(node); i++) visit(Array.get(node, i));
                }
                return;
            }
            String pkg = node.getClass().getPackageName();
            if (!pkg.startsWith("net.sf.jsqlparser") || pkg.startsWith(PARSER_PACKAGE)) return;
            rename(node);
            for (Field f : FIELDS.get(node.getClass())) {
                try {
                    Object child = f.get(node);
                    Object with = replaced(child);
                    if (with != child && f.getType().isInstance(with)) {
                        f.set(node, with);
                        child = with;
                    }
                    visit(child);
                } catch (ReflectiveOperationException | RuntimeException inaccessible) {
                    // a field of the parser's own (tokens, nodes): holds no names of the statement
                }
            }
        }

        /** The node to put in place of {@code child} in its parent: {@code child} itself unless a subclass says. */
        Object replaced(Object child) {
            return child;
        }

        @SuppressWarnings("unchecked")
        private static void set(List<?> items, int at, Object with) {
            try {
                ((List<Object>) items).set(at, with);
            } catch (UnsupportedOperationException | ClassCastException fixed) {
                // an immutable list of the parser's: left as it is
            }
        }

        private void rename(Object node) {
            if (node instanceof Column column) {
                if (!isPinned(column)) rename(column::getColumnName, column::setColumnName);
            } else if (node instanceof Table table) {
                rename(table::getName, table::setName);
            } else if (node instanceof Alias alias) {
                rename(alias::getName, alias::setName);
            } else if (node instanceof ColumnDefinition definition) {
                rename(definition::getColumnName, definition::setColumnName);
                renameReferences(definition.getColumnSpecs());
            } else if (node instanceof AlterExpression alter) {
                rename(alter::getColumnName, alter::setColumnName);
                rename(alter::getColumnOldName, alter::setColumnOldName);
                rename(alter::getColOldName, alter::setColOldName);
            } else if (node instanceof Index index) {
                renameIndexColumns(index);
            }
        }

        /** A column that names a register the translator pins (HSQLDB's NOW): never renamed. */
        boolean isPinned(Column column) {
            return false;
        }

        /** Renames the name {@code get} reads through {@code set}. */
        private void rename(Supplier<String> get, Consumer<String> set) {
            String old = get.get();
            String q = old == null ? null : renamed.apply(old);
            if (q == null) return;
            set.accept(q);
            if (undo != null) undo.add(() -> set.accept(old));
        }

        /**
         * The table and columns of a column's {@code REFERENCES t (a, b)}, which the parser keeps as words: the table,
         * then the columns in one word.
         */
        private void renameReferences(List<String> specs) {
            if (specs == null) return;
            for (int i = 0; i + 1 < specs.size(); i++) {
                if (!"REFERENCES".equalsIgnoreCase(specs.get(i))) continue;
                int table = i + 1;
                rename(() -> specs.get(table), q -> specs.set(table, q));
                String columns = i + 2 < specs.size() ? specs.get(i + 2) : "";
                if (columns.startsWith("(") && columns.endsWith(")")) {
                    String[] names = columns.substring(1, columns.length() - 1).split(",", -1);
                    boolean changed = false;
                    for (int k = 0; k < names.length; k++) {
                        String name = names[k].strip();
                        String q = name.isEmpty() ? null : renamed.apply(name);
                        changed |= q != null;
                        names[k] = q == null ? name : q;
                    }
                    if (changed) {
                        int at = i + 2;
                        specs.set(at, "(" + String.join(", ", names) + ")");
                        if (undo != null) undo.add(() -> specs.set(at, columns));
                    }
                }
            }
        }

        private void renameIndexColumns(Index index) {
            List<Index.ColumnParams> columns = index.getColumns();
            if (columns != null) {
                for (int i = 0; i < columns.size(); i++) {
                    Index.ColumnParams p = columns.get(i);
                    String q = p.getColumnName() == null ? null : renamed.apply(p.getColumnName());
                    if (q == null) continue;
                    int at = i;
                    columns.set(at, new Index.ColumnParams(q, p.getParams()));
                    if (undo != null) undo.add(() -> columns.set(at, p));
                }
            }
            if (index instanceof ForeignKeyIndex fk && fk.getReferencedColumnNames() != null) {
                List<String> referenced = fk.getReferencedColumnNames();
                for (int i = 0; i < referenced.size(); i++) {
                    int at = i;
                    rename(() -> referenced.get(at), q -> referenced.set(at, q));
                }
            }
        }
    }
}
