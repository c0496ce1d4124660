//! Judging a request line as JSON, the same way for the referee and the bot (§10): a line that
//! is not JSON is `bad_json`, JSON of no request's shape `bad_request`; and the line that refuses
//! a request, the same for both.
//!
//! `serde_json` builds a `Value` less than 128 levels deep and otherwise fails with an error of the
//! syntax category, so a line like `[[[[…]]]]` 200 levels deep would look like `bad_json`
//! although it is JSON. Skipping a value (`IgnoredAny`) has no depth limit and no recursion in
//! `serde_json`, so it tells the two apart.

use gunjin::wire::RepeatedKey;
use serde::Serialize;
use serde::de::IgnoredAny;
use serde_json::Value;

/// `{"ok":false,"error":{"code","message"}}`, in that key order.
#[derive(Serialize)]
struct Refusal<'a> {
    ok: bool,
    error: RefusalBody<'a>,
}

#[derive(Serialize)]
struct RefusalBody<'a> {
    code: &'a str,
    message: String,
}

/// The answer line refusing a request: `{"ok":false,"error":{"code":…,"message":…}}`.
#[must_use]
pub fn refusal_line(code: &str, message: String) -> String {
    let refusal = Refusal {
        ok: false,
        error: RefusalBody { code, message },
    };
    serde_json::to_string(&refusal).unwrap_or_else(|_| {
        // Unreachable: the refusal holds only strings. Kept total all the same.
        format!(r#"{{"ok":false,"error":{{"code":"{code}","message":""}}}}"#)
    })
}

use crate::referee::MAX_LINE;

/// Why a request line was refused before its fields were looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LineRefusal {
    /// Not JSON (`bad_json`).
    NotJson(String),
    /// JSON, but of no request's shape, or too long to read (`bad_request`).
    WrongShape(String),
}

/// Parses a request line into JSON.
///
/// An object that names a key twice is of no request's shape: which of the two was meant?
pub(crate) fn parse_line(line: &str) -> Result<Value, LineRefusal> {
    match parse_line_noting_repeats(line)? {
        (value, None) => Ok(value),
        (_, Some(repeated)) => Err(LineRefusal::WrongShape(repeated.to_string())),
    }
}

/// Parses a request line into JSON, with the first key it names twice in one object (if any)
/// for the caller to judge: a setup naming a square twice is a fault of the setup.
pub(crate) fn parse_line_noting_repeats(
    line: &str,
) -> Result<(Value, Option<RepeatedKey>), LineRefusal> {
    let value = serde_json::from_str(line).map_err(|e| {
        if too_deep_but_json(line, &e) {
            LineRefusal::WrongShape(TOO_DEEP.into())
        } else if serde_json::from_str::<IgnoredAny>(line).is_ok() {
            // JSON by the grammar that no request holds: a number too large for a float
            // (`1e999`), a lone surrogate escape (`"\ud800"`).
            LineRefusal::WrongShape(format!("no request holds such a value: {e}"))
        } else {
            LineRefusal::NotJson(e.to_string())
        }
    })?;
    let repeated = gunjin::wire::repeated_key(&mut serde_json::Deserializer::from_str(line));
    Ok((value, repeated))
}

/// The refusal of a line longer than [`MAX_LINE`], judged by the part kept: not JSON when that
/// part already cannot begin a JSON text, else too long to read.
pub(crate) fn overlong(kept: &[u8]) -> LineRefusal {
    // The cut may fall inside a UTF-8 character: judge only the whole characters before it.
    let text = match std::str::from_utf8(kept) {
        Ok(text) => text,
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&kept[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(e) => return LineRefusal::NotJson(format!("the line is not UTF-8: {e}")),
    };
    match serde_json::from_str::<IgnoredAny>(text) {
        Err(e) if !e.is_eof() => LineRefusal::NotJson(e.to_string()),
        _ => LineRefusal::WrongShape(format!("the request line is longer than {MAX_LINE} bytes")),
    }
}

/// Whether `error` is the parser giving up on depth rather than on the text.
fn is_depth_limit(error: &serde_json::Error) -> bool {
    error.to_string().starts_with("recursion limit exceeded")
}

/// Whether a parse error of `line` hides a JSON text nested too deep to read: then it is a
/// request of the wrong shape, not a line that is not JSON.
fn too_deep_but_json(line: &str, error: &serde_json::Error) -> bool {
    is_depth_limit(error) && serde_json::from_str::<IgnoredAny>(line).is_ok()
}

/// What an over-deep JSON line is told.
const TOO_DEEP: &str = "the JSON is nested 128 levels deep or more: no request has that shape";

#[cfg(test)]
mod tests {
    use super::*;

    fn deep(open: &str, inner: &str, close: &str, n: usize) -> String {
        format!("{}{inner}{}", open.repeat(n), close.repeat(n))
    }

    #[test]
    fn deep_json_is_json_and_deep_garbage_is_not() {
        for text in [
            deep("[", "1", "]", 100_000),
            deep("{\"k\":", "null", "}", 5_000),
        ] {
            let error = serde_json::from_str::<Value>(&text).unwrap_err();
            assert!(is_depth_limit(&error), "{error}");
            assert!(too_deep_but_json(&text, &error));
        }
        for text in [
            "[".repeat(100_000),
            deep("[", "1,", "]", 300),
            deep("[", "1", "]", 300) + "]",
        ] {
            let error = serde_json::from_str::<Value>(&text).unwrap_err();
            assert!(
                !too_deep_but_json(&text, &error),
                "{}",
                &text[text.len() - 8..]
            );
        }
        // A syntax error before the depth limit is not a depth error.
        let error = serde_json::from_str::<Value>("[1,]").unwrap_err();
        assert!(!is_depth_limit(&error));
        assert!(!too_deep_but_json("[1,]", &error));
    }
}
