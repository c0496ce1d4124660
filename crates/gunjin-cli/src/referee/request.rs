//! Requests, parsed once at the edge: raw line → JSON → a closed set of typed requests.

use gunjin::wire::{RepeatedKey, WireSetupEntries};
use gunjin::{BySide, Move, Ruleset, Side, Square};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::error::RefereeError;
use crate::json_text;

/// A request of §10.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Start a game (replacing any current one).
    New {
        rules: Ruleset,
        setup: BySide<WireSetupEntries>,
    },
    /// Every legal move of the side to move.
    LegalMoves,
    /// Play a move of the side to move. A name that is no square of the board makes it an
    /// illegal move (`Err` holds the message), refused only once a game is on.
    Move(Result<Move, String>),
    /// The whole board (the referee's view: every kind).
    Board,
    /// One side's view.
    View(Side),
    /// A side resigns.
    Resign(Side),
}

#[derive(Deserialize)]
struct NewFields {
    #[serde(default)]
    ruleset: Option<String>,
    setup: SetupFields,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupFields {
    sente: WireSetupEntries,
    gote: WireSetupEntries,
}

#[derive(Deserialize)]
struct MoveFields {
    from: String,
    to: String,
}

#[derive(Deserialize)]
struct SideFields {
    side: String,
}

impl Request {
    /// Parses one request line.
    ///
    /// # Errors
    /// `bad_json` when the line is not JSON, `bad_request` when its shape is wrong,
    /// `unknown_cmd` for a command the referee does not know.
    pub fn parse(line: &str) -> Result<Request, RefereeError> {
        let (value, repeated) = json_text::parse_line_noting_repeats(line)?;
        let Value::Object(fields) = value else {
            return Err(bad(
                "a request is a JSON object such as {\"cmd\":\"board\"}",
            ));
        };
        let cmd = match fields.get("cmd") {
            Some(Value::String(cmd)) => cmd.clone(),
            Some(_) => return Err(bad("field \"cmd\" must be a string")),
            None => return Err(bad("missing field \"cmd\"")),
        };
        // A key named twice is of no request's shape, but a square named twice in one side's
        // setup of a well-formed `new` is a fault of that setup.
        let setup_twice = match repeated {
            None => false,
            Some(r) => match setup_naming_twice(&r) {
                Some(_) if cmd == "new" => true,
                _ => return Err(bad(&r.to_string())),
            },
        };
        match cmd.as_str() {
            "new" => {
                // Left out, the rule set is the standard one; given, it must name one.
                if fields.get("ruleset").is_some_and(Value::is_null) {
                    return Err(bad(
                        "field \"ruleset\" must be a string such as \"standard\"",
                    ));
                }
                // serde would read the two setups from an array too; §10's is an object.
                if fields.get("setup").is_some_and(|v| !v.is_object()) {
                    return Err(bad(
                        "field \"setup\" must be an object: {\"sente\":{…},\"gote\":{…}}",
                    ));
                }
                // The parsed value kept one entry of a repeated key: read the setups from the
                // text itself then, which keeps both.
                let f: NewFields = if setup_twice {
                    serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?
                } else {
                    fields_of(fields)?
                };
                let id = f.ruleset.as_deref().unwrap_or("standard");
                let rules = Ruleset::from_id(id)
                    .ok_or_else(|| bad(&format!("unknown ruleset {id:?}; known: standard")))?;
                Ok(Request::New {
                    rules,
                    setup: BySide {
                        sente: f.setup.sente,
                        gote: f.setup.gote,
                    },
                })
            }
            "legal_moves" => Ok(Request::LegalMoves),
            "move" => {
                let f: MoveFields = fields_of(fields)?;
                Ok(Request::Move(square(&f.from).and_then(|from| {
                    square(&f.to).map(|to| Move { from, to })
                })))
            }
            "board" => Ok(Request::Board),
            "view" => Ok(Request::View(side(fields_of(fields)?)?)),
            "resign" => Ok(Request::Resign(side(fields_of(fields)?)?)),
            _ => Err(RefereeError::UnknownCmd(cmd)),
        }
    }
}

/// The side whose setup names a square twice, when that is the key `repeated`.
fn setup_naming_twice(repeated: &RepeatedKey) -> Option<Side> {
    Side::ALL
        .into_iter()
        .find(|side| repeated.is_in(&["setup", side.id()]))
}

fn bad(message: &str) -> RefereeError {
    RefereeError::BadRequest(message.to_owned())
}

fn fields_of<T: DeserializeOwned>(fields: Map<String, Value>) -> Result<T, RefereeError> {
    serde_json::from_value(Value::Object(fields)).map_err(|e| bad(&e.to_string()))
}

fn square(name: &str) -> Result<Square, String> {
    Square::parse(name).ok_or_else(|| format!("{name:?} is not a square of the board"))
}

fn side(f: SideFields) -> Result<Side, RefereeError> {
    Side::from_id(&f.side)
        .ok_or_else(|| bad(&format!("{:?} is not a side; known: sente, gote", f.side)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(line: &str) -> &'static str {
        Request::parse(line).unwrap_err().code()
    }

    #[test]
    fn simple_commands_parse_and_extra_fields_are_ignored() {
        assert_eq!(
            Request::parse(r#"{"cmd":"board","id":7}"#),
            Ok(Request::Board)
        );
        assert_eq!(
            Request::parse(r#"{"cmd":"legal_moves"}"#),
            Ok(Request::LegalMoves)
        );
        assert_eq!(
            Request::parse(r#"{"cmd":"view","side":"gote"}"#),
            Ok(Request::View(Side::Gote))
        );
        assert_eq!(
            Request::parse(r#"{"side":"sente","cmd":"resign"}"#),
            Ok(Request::Resign(Side::Sente))
        );
    }

    #[test]
    fn moves_accept_headquarters_aliases() {
        let hq = Square::hq(Side::Sente);
        let b1 = Square::parse("b1").unwrap();
        for alias in ["c1", "d1", "cd1"] {
            let line = format!(r#"{{"cmd":"move","from":"{alias}","to":"b1"}}"#);
            assert_eq!(
                Request::parse(&line),
                Ok(Request::Move(Ok(Move { from: hq, to: b1 })))
            );
        }
    }

    #[test]
    fn new_defaults_to_the_standard_rules() {
        let line = r#"{"cmd":"new","setup":{"sente":{"a1":"general"},"gote":{}}}"#;
        let Ok(Request::New { rules, setup }) = Request::parse(line) else {
            panic!("not a new request");
        };
        assert_eq!(rules, Ruleset::STANDARD);
        assert_eq!(setup.sente.0, [("a1".to_owned(), "general".to_owned())]);
        assert!(setup.gote.0.is_empty());
    }

    #[test]
    fn not_json_is_bad_json() {
        assert_eq!(code("{"), "bad_json");
        assert_eq!(code("cmd board"), "bad_json");
        assert_eq!(code(r#"{"cmd":"board"} {"cmd":"board"}"#), "bad_json");
    }

    #[test]
    fn wrong_shapes_are_bad_requests() {
        for line in [
            "[1,2]",
            "42",
            r#""board""#,
            "null",
            "{}",
            r#"{"cmd":3}"#,
            r#"{"cmd":null}"#,
            r#"{"cmd":"move","from":"b3"}"#,
            r#"{"cmd":"move","from":"b3","to":4}"#,
            r#"{"cmd":"view"}"#,
            r#"{"cmd":"view","side":"red"}"#,
            r#"{"cmd":"resign","side":"Sente"}"#,
            r#"{"cmd":"resign","side":1}"#,
            r#"{"cmd":"new"}"#,
            r#"{"cmd":"new","setup":{"sente":{}}}"#,
            r#"{"cmd":"new","setup":{"sente":{},"gote":{},"third":{}}}"#,
            r#"{"cmd":"new","setup":{"sente":{"a1":1},"gote":{}}}"#,
            r#"{"cmd":"new","setup":{"sente":[],"gote":{}}}"#,
            r#"{"cmd":"new","ruleset":"house","setup":{"sente":{},"gote":{}}}"#,
            r#"{"cmd":"new","ruleset":5,"setup":{"sente":{},"gote":{}}}"#,
            r#"{"cmd":"new","ruleset":null,"setup":{"sente":{},"gote":{}}}"#,
        ] {
            assert_eq!(code(line), "bad_request", "{line}");
        }
    }

    #[test]
    fn unknown_commands_are_named() {
        let err = Request::parse(r#"{"cmd":"castle"}"#).unwrap_err();
        assert_eq!(err.code(), "unknown_cmd");
        assert!(err.to_string().contains("castle"));
        assert_eq!(code(r#"{"cmd":"Board"}"#), "unknown_cmd");
    }
}
