package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts an expression into tokens: names ({@code [A-Za-z_][A-Za-z0-9_]*}), numbers ({@code 0} or digits not starting
 * with 0; only list indexes use them), expression attribute names ({@code #} and one or more letters, digits or underscores) and values
 * ({@code :} likewise), the punctuation and comparators of the grammars, and anything else as an error token of
 * one character (a lone {@code #} or {@code :} included) that no grammar accepts, so that the parser reports it
 * as DynamoDB does: {@code Syntax error; token: "#", near: ", #,"}.
 */
final class Lexer {

	enum Kind {
		NAME, NUMBER, NAME_PLACEHOLDER, VALUE_PLACEHOLDER, LPAREN, RPAREN, LBRACKET, RBRACKET, COMMA, DOT, EQ, NE, LT,
		LE, GT, GE, PLUS, MINUS, ERROR, EOF
	}

	/**
	 * One token.
	 * @param kind its kind
	 * @param text its text as written
	 * @param start the offset of its first character
	 * @param end the offset after its last character
	 */
	record Token(Kind kind, String text, int start, int end) {

		/** Whether this is a name spelled {@code keyword} in any case (DynamoDB's keywords ignore case). */
		boolean is(String keyword) {
			return this.kind == Kind.NAME && this.text.equalsIgnoreCase(keyword);
		}

	}

	private Lexer() {
	}

	static List<Token> tokens(String text) {
		List<Token> tokens = new ArrayList<>();
		int i = 0;
		int length = text.length();
		while (i < length) {
			char c = text.charAt(i);
			if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
				i++;
				continue;
			}
			Token token = token(text, i);
			tokens.add(token);
			i = token.end();
		}
		tokens.add(new Token(Kind.EOF, "<EOF>", length, length));
		return tokens;
	}

	/** The token that starts at {@code start}. */
	private static Token token(String text, int start) {
		int length = text.length();
		char c = text.charAt(start);
		int i = start;
		Kind kind;
		if (isNameStart(c)) {
			i = skipNamePart(text, i + 1);
			kind = Kind.NAME;
		}
		else if (c >= '0' && c <= '9') {
			// A number is 0, or digits that do not start with 0: "01" is two numbers, as DynamoDB reads it.
			i++;
			if (c != '0') {
				while (i < length && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
					i++;
				}
			}
			kind = Kind.NUMBER;
		}
		else if (c == '#' || c == ':') {
			i = skipNamePart(text, i + 1);
			if (i == start + 1) {
				kind = Kind.ERROR;
			}
			else {
				kind = (c == '#') ? Kind.NAME_PLACEHOLDER : Kind.VALUE_PLACEHOLDER;
			}
		}
		else {
			return punctuation(text, start);
		}
		return new Token(kind, text.substring(start, i), start, i);
	}

	/** A punctuation mark or comparator, or an error token of one code point. */
	private static Token punctuation(String text, int start) {
		int length = text.length();
		char c = text.charAt(start);
		int i = start + 1;
		Kind kind = switch (c) {
			case '(' -> Kind.LPAREN;
			case ')' -> Kind.RPAREN;
			case '[' -> Kind.LBRACKET;
			case ']' -> Kind.RBRACKET;
			case ',' -> Kind.COMMA;
			case '.' -> Kind.DOT;
			case '+' -> Kind.PLUS;
			case '-' -> Kind.MINUS;
			case '=' -> Kind.EQ;
			case '<' -> {
				if (i < length && text.charAt(i) == '=') {
					i++;
					yield Kind.LE;
				}
				if (i < length && text.charAt(i) == '>') {
					i++;
					yield Kind.NE;
				}
				yield Kind.LT;
			}
			case '>' -> {
				if (i < length && text.charAt(i) == '=') {
					i++;
					yield Kind.GE;
				}
				yield Kind.GT;
			}
			default -> {
				// One character, a whole code point, of nothing the grammars know.
				if (Character.isHighSurrogate(c) && i < length && Character.isLowSurrogate(text.charAt(i))) {
					i++;
				}
				yield Kind.ERROR;
			}
		};
		return new Token(kind, text.substring(start, i), start, i);
	}

	private static boolean isNameStart(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
	}

	private static int skipNamePart(String text, int i) {
		while (i < text.length()) {
			char c = text.charAt(i);
			if (!isNameStart(c) && !(c >= '0' && c <= '9')) {
				break;
			}
			i++;
		}
		return i;
	}

}
