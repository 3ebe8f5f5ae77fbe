package org.shepherd.cli;

import java.io.PrintWriter;
import java.util.List;

/**
 * Prints rows as an aligned text table. Column widths come from the header and the first rows handed over in
 * one {@link #printBlock} call; the caller bounds that block, so memory stays bounded for any result size.
 */
final class TableFormatter {

    private final List<String> labels;
    private final boolean[] rightAligned;
    private final int[] widths;

    TableFormatter(List<String> labels, boolean[] rightAligned) {
        this.labels = List.copyOf(labels);
        this.rightAligned = rightAligned.clone();
        this.widths = new int[labels.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = displayWidth(labels.get(c));
        }
    }

    /** Widens columns to fit these rows; call before the header is printed. */
    void fit(List<String[]> rows) {
        for (String[] row : rows) {
            for (int c = 0; c < widths.length; c++) {
                widths[c] = Math.max(widths[c], displayWidth(row[c]));
            }
        }
    }

    void printHeader(PrintWriter out) {
        printRule(out);
        String[] header = labels.toArray(new String[0]);
        printRow(out, header, new boolean[widths.length]);
        printRule(out);
    }

    void printRows(PrintWriter out, List<String[]> rows) {
        for (String[] row : rows) {
            printRow(out, row, rightAligned);
        }
    }

    void printRule(PrintWriter out) {
        StringBuilder line = new StringBuilder();
        for (int width : widths) {
            line.append('+').append("-".repeat(width + 2));
        }
        out.println(line.append('+'));
    }

    private void printRow(PrintWriter out, String[] row, boolean[] alignRight) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < widths.length; c++) {
            String value = printable(row[c]);
            String pad = " ".repeat(Math.max(0, widths[c] - displayWidth(value)));
            line.append("| ");
            if (alignRight[c]) {
                line.append(pad).append(value);
            } else {
                line.append(value).append(pad);
            }
            line.append(' ');
        }
        out.println(line.append('|'));
    }

    private static int displayWidth(String value) {
        return printable(value).codePointCount(0, printable(value).length());
    }

    /** Control characters would break the alignment; show them escaped. */
    private static String printable(String value) {
        if (value.chars().noneMatch(Character::isISOControl)) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length() + 8);
        for (char ch : value.toCharArray()) {
            switch (ch) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (Character.isISOControl(ch)) {
                        out.append(String.format("\\u%04x", (int) ch));
                    } else {
                        out.append(ch);
                    }
                }
            }
        }
        return out.toString();
    }
}
