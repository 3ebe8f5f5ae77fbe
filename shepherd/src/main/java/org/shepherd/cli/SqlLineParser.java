package org.shepherd.cli;

import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser;
import org.jline.reader.impl.DefaultParser;

/** Makes JLine ask for more lines until the statement ends with {@code ;} (shell commands need none). */
final class SqlLineParser implements Parser {

    private final DefaultParser words = new DefaultParser();

    SqlLineParser() {
        words.setEscapeChars(new char[0]);
    }

    @Override
    public ParsedLine parse(String line, int cursor, ParseContext context) {
        if (context == ParseContext.ACCEPT_LINE && !SqlShell.isShellCommand(line) && !StatementSplitter.split(line).complete()) {
            throw new EOFError(-1, cursor, "statement not ended by ;");
        }
        return words.parse(line, cursor, context);
    }
}
