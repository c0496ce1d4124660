//! `gunjin referee`: the JSON-lines referee of spec §10.
//!
//! One request object per line on standard input, one response object per line on standard
//! output, nothing else on standard output. Every response is flushed at once so a driving program
//! can wait for it line by line.
//!
//! Decisions where the spec leaves room:
//! - Every line gets exactly one answer, a blank one (only whitespace) too: it is not JSON, so
//!   `bad_json`. A driving program can always wait for one answer per line it sent.
//! - A `new` while a game exists replaces that game (only when the new setup is valid).
//! - `ruleset` may be left out (the standard rules); `null`, an unknown ruleset id and a `side`
//!   that is neither `sente` nor `gote` are `bad_request`. A `move` whose `from` or `to` names no
//!   square of the board (`"z9"`) is an `illegal_move` (once a game is on: before any `new` it is
//!   `no_game`, after the end `game_over`). Square and kind names inside a setup are the setup's
//!   business: `invalid_setup`, listed with every other violation.
//! - A key named twice in one object is `bad_request` (which of the two was meant?), except a
//!   square named twice in one side's setup of a `new` of the right shape: `invalid_setup`.
//! - Squares are answered by their canonical names (`cd1`, `cd8`); requests may also use `c1`/`d1`
//!   and `c8`/`d8`.
//! - The shape of a request is checked before the game: `{"cmd":"move"}` is `bad_request` even
//!   before any `new`. Unknown extra fields are ignored.
//! - Bytes that are not UTF-8 are `bad_json`; a line longer than [`MAX_LINE`] bytes is
//!   `bad_request` (its excess is skipped unread), unless the part read is already not JSON
//!   (`"xxxx…"`, a stray byte): that is `bad_json`, as for a short line.
//! - JSON nested 128 levels deep or more is `bad_request` (no request has that shape); text that
//!   is not JSON is `bad_json` at any depth.

mod error;
mod request;
mod session;

use std::io::{self, BufRead, Write};

use crate::json_text;

pub use error::RefereeError;
pub use session::Referee;

/// The longest request line read, in bytes. A whole setup takes about 1.5 kB.
pub const MAX_LINE: usize = 1 << 20;

/// Answers every request line of `input` on `output` until the end of `input`.
///
/// # Errors
/// Only I/O errors of the streams themselves; bad requests are answered, never returned.
pub fn run(mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut referee = Referee::default();
    let mut line = Vec::new();
    while let Some(too_long) = read_line(&mut input, &mut line)? {
        let answer = if too_long {
            Referee::error_line(&json_text::overlong(&line).into())
        } else {
            match std::str::from_utf8(&line) {
                Ok(text) => referee.handle(text),
                Err(e) => Referee::error_line(&RefereeError::BadJson(format!(
                    "the line is not UTF-8: {e}"
                ))),
            }
        };
        output.write_all(answer.as_bytes())?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}

/// Reads one line (without its `\n`) into `line`, keeping at most [`MAX_LINE`] bytes.
/// `None` at the end of input; otherwise whether the line was longer than the limit.
pub(crate) fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    line.clear();
    let mut too_long = false;
    let mut read_any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read_any.then_some(too_long));
        }
        read_any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        let room = MAX_LINE - line.len();
        if chunk.len() > room {
            too_long = true;
        }
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len() + usize::from(newline.is_some());
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(too_long));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_text(input: &[u8]) -> Vec<serde_json::Value> {
        let mut out = Vec::new();
        run(input, &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn every_line_gets_one_answer_and_a_blank_one_is_bad_json() {
        let answers = run_text(b"\n   \r\n{\"cmd\":\"board\"}\r\n\n{\"cmd\":\"nope\"}");
        let codes: Vec<_> = answers.iter().map(|a| a["error"]["code"].clone()).collect();
        assert_eq!(
            codes,
            ["bad_json", "bad_json", "no_game", "bad_json", "unknown_cmd"]
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_bad_json_and_reading_goes_on() {
        let answers = run_text(b"{\"cmd\":\"bo\xffard\"}\n{\"cmd\":\"board\"}\n");
        assert_eq!(answers.len(), 2);
        assert_eq!(answers[0]["error"]["code"], "bad_json");
        assert_eq!(answers[1]["error"]["code"], "no_game");
    }

    #[test]
    fn an_overlong_line_is_refused_whole_and_the_next_line_is_read() {
        let mut input = vec![b' '; MAX_LINE + 10];
        input.extend_from_slice(b"{\"cmd\":\"board\"}\n{\"cmd\":\"board\"}\n");
        let answers = run_text(&input);
        assert_eq!(answers.len(), 2);
        assert_eq!(answers[0]["error"]["code"], "bad_request");
        assert_eq!(answers[1]["error"]["code"], "no_game");
    }

    #[test]
    fn an_overlong_line_that_is_not_json_is_bad_json_and_the_next_line_is_read() {
        for head in [
            &b"x"[..],
            b"{\"cmd\":\"board\"}}",
            b"[1,,",
            b"\xff",
            b"\"\xe3\x81",
        ] {
            let mut input = head.to_vec();
            input.resize(MAX_LINE + 10, b'x');
            input.extend_from_slice(b"\n{\"cmd\":\"board\"}\n");
            let answers = run_text(&input);
            assert_eq!(answers.len(), 2, "{head:?}");
            assert_eq!(answers[0]["error"]["code"], "bad_json", "{head:?}");
            assert_eq!(answers[1]["error"]["code"], "no_game", "{head:?}");
        }
        // Cut inside a string or a multi-byte character: it may still be JSON, so too long.
        for head in [&b"{\"cmd\":\""[..], b"{\"cmd\":\"\xe3\x81\x82"] {
            let mut input = head.to_vec();
            input.resize(MAX_LINE - 1, b'a');
            input.extend_from_slice("\u{3042}\u{3042}\"}\n".as_bytes());
            let answers = run_text(&input);
            assert_eq!(answers.len(), 1, "{head:?}");
            assert_eq!(answers[0]["error"]["code"], "bad_request", "{head:?}");
        }
    }

    #[test]
    fn json_nested_deeper_than_the_parser_reads_is_bad_request_and_broken_nesting_bad_json() {
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let object = format!("{{\"cmd\":\"board\",\"x\":{deep}}}");
        let unclosed = "[".repeat(10_000);
        let mut input = Vec::new();
        for line in [&deep, &object, &unclosed] {
            input.extend_from_slice(line.as_bytes());
            input.push(b'\n');
        }
        input.extend_from_slice(b"{\"cmd\":\"board\"}\n");
        let answers = run_text(&input);
        let codes: Vec<&str> = answers
            .iter()
            .map(|a| a["error"]["code"].as_str().unwrap_or("ok"))
            .collect();
        assert_eq!(codes, ["bad_request", "bad_request", "bad_json", "no_game"]);
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_read() {
        let mut input = vec![b' '; MAX_LINE - 15];
        input.extend_from_slice(b"{\"cmd\":\"board\"}\n");
        let answers = run_text(&input);
        assert_eq!(answers.len(), 1);
        assert_eq!(answers[0]["error"]["code"], "no_game");
    }
}
