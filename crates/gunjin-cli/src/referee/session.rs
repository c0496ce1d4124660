//! The referee's state (at most one game) and its answers.

use std::collections::BTreeMap;

use gunjin::wire::{WirePiece, WireSetupEntries, WireView};
use gunjin::{Battle, BySide, Deployment, Game, Ruleset, Setup, Side, Square, Status};
use serde::Serialize;

use super::error::RefereeError;
use super::request::Request;
use crate::json_text;

/// A referee: the current game, if any, and the answer to each request line.
#[derive(Debug, Default)]
pub struct Referee {
    game: Option<Game>,
}

/// `{"ok":true, …body}`.
#[derive(Serialize)]
struct Success<T> {
    ok: bool,
    #[serde(flatten)]
    body: T,
}

#[derive(Serialize)]
struct Started {}

#[derive(Serialize)]
struct LegalMoves {
    side: Side,
    moves: Vec<[&'static str; 2]>,
}

#[derive(Serialize)]
struct Moved {
    battle: Option<Battle>,
    status: Status,
}

#[derive(Serialize)]
struct Board {
    to_move: Side,
    plies_without_battle: u16,
    pieces: BTreeMap<Square, WirePiece>,
    status: Status,
}

#[derive(Serialize)]
struct Resigned {
    status: Status,
}

impl Referee {
    /// The game being refereed, if any.
    #[must_use]
    #[cfg(test)]
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Answers one request line with one response line (without the newline). A refused request
    /// changes nothing.
    pub fn handle(&mut self, line: &str) -> String {
        match Request::parse(line).and_then(|request| self.execute(request)) {
            Ok(answer) => answer,
            Err(e) => Self::error_line(&e),
        }
    }

    /// The response line for a refused request.
    #[must_use]
    pub fn error_line(error: &RefereeError) -> String {
        json_text::refusal_line(error.code(), error.to_string())
    }

    fn execute(&mut self, request: Request) -> Result<String, RefereeError> {
        match request {
            Request::New { rules, setup } => {
                let game = new_game(rules, &setup)?;
                self.game = Some(game);
                success(Started {})
            }
            Request::LegalMoves => {
                let pos = self.current()?.position();
                let moves: Vec<[&'static str; 2]> = gunjin::wire::legal_moves_by_name(pos)
                    .iter()
                    .map(|mv| [mv.from.name(), mv.to.name()])
                    .collect();
                success(LegalMoves {
                    side: pos.to_move(),
                    moves,
                })
            }
            Request::Move(mv) => {
                let game = self.current_mut()?;
                if !game.status().is_ongoing() {
                    return Err(RefereeError::GameOver);
                }
                let ply = game.play(mv.map_err(RefereeError::NoSuchSquare)?)?;
                success(Moved {
                    battle: ply.battle,
                    status: game.status(),
                })
            }
            Request::Board => {
                let pos = self.current()?.position();
                success(Board {
                    to_move: pos.to_move(),
                    plies_without_battle: pos.plies_without_battle(),
                    pieces: pos
                        .pieces()
                        .map(|(sq, p)| {
                            let piece = WirePiece {
                                side: p.side,
                                kind: Some(p.kind),
                            };
                            (sq, piece)
                        })
                        .collect(),
                    status: pos.status(),
                })
            }
            Request::View(side) => success(WireView::from(&self.current()?.view(side))),
            Request::Resign(side) => {
                let status = self.current_mut()?.resign(side)?;
                success(Resigned { status })
            }
        }
    }

    fn current(&self) -> Result<&Game, RefereeError> {
        self.game.as_ref().ok_or(RefereeError::NoGame)
    }

    fn current_mut(&mut self) -> Result<&mut Game, RefereeError> {
        self.game.as_mut().ok_or(RefereeError::NoGame)
    }
}

/// Validates both setups, reporting every violation of both sides at once.
fn new_game(rules: Ruleset, setup: &BySide<WireSetupEntries>) -> Result<Game, RefereeError> {
    let sente = Deployment::new(Side::Sente, &Setup::from_names(setup.sente.pairs()), &rules);
    let gote = Deployment::new(Side::Gote, &Setup::from_names(setup.gote.pairs()), &rules);
    let deployments = match (sente, gote) {
        (Ok(sente), Ok(gote)) => BySide { sente, gote },
        (sente, gote) => {
            let message = [sente.err(), gote.err()]
                .into_iter()
                .flatten()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; ");
            return Err(RefereeError::InvalidSetup(message));
        }
    };
    Game::new(rules, deployments).map_err(|e| RefereeError::InvalidSetup(e.to_string()))
}

fn success<T: Serialize>(body: T) -> Result<String, RefereeError> {
    // Serializing the referee's own answers cannot fail (string keys, no floats); should it ever,
    // the request is refused rather than half answered.
    serde_json::to_string(&Success { ok: true, body })
        .map_err(|e| RefereeError::BadRequest(format!("the answer could not be written: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn new_line(seed: u64) -> String {
        let setup = BySide::new_with(|side| {
            Deployment::auto(side, seed + side.index() as u64)
                .to_wire()
                .into_iter()
                .map(|(sq, kind)| (sq.name().to_owned(), kind.id().to_owned()))
                .collect::<BTreeMap<_, _>>()
        });
        json!({"cmd":"new","ruleset":"standard","setup":{"sente":setup.sente,"gote":setup.gote}})
            .to_string()
    }

    fn answer(referee: &mut Referee, line: &str) -> Value {
        serde_json::from_str(&referee.handle(line)).unwrap()
    }

    #[test]
    fn a_valid_new_replaces_the_game_and_an_invalid_one_keeps_it() {
        let mut referee = Referee::default();
        assert_eq!(answer(&mut referee, &new_line(1)), json!({"ok":true}));
        let first = referee.game().cloned().unwrap();
        let mv = first.position().legal_moves()[0];
        let line = json!({"cmd":"move","from":mv.from.name(),"to":mv.to.name()}).to_string();
        assert_eq!(answer(&mut referee, &line)["ok"], true);
        let played = referee.game().cloned().unwrap();
        assert_ne!(played, first);

        let bad = r#"{"cmd":"new","setup":{"sente":{"a1":"flag"},"gote":{}}}"#;
        assert_eq!(answer(&mut referee, bad)["error"]["code"], "invalid_setup");
        assert_eq!(referee.game(), Some(&played));

        assert_eq!(answer(&mut referee, &new_line(9))["ok"], true);
        let replaced = referee.game().unwrap();
        assert!(replaced.history().is_empty());
        assert_ne!(replaced.deployments(), first.deployments());
    }

    #[test]
    fn refused_moves_and_resignations_change_nothing() {
        let mut referee = Referee::default();
        answer(&mut referee, &new_line(3));
        let before = referee.game().cloned();
        for line in [
            r#"{"cmd":"move","from":"a1","to":"a2"}"#,
            r#"{"cmd":"move","from":"a5","to":"a4"}"#,
            r#"{"cmd":"move","from":"c3"}"#,
            r#"{"cmd":"resign","side":"nobody"}"#,
            r#"{"cmd":"move","from":"a2","to":"a2"}"#,
            "{oops",
        ] {
            assert_eq!(answer(&mut referee, line)["ok"], false, "{line}");
            assert_eq!(referee.game().cloned(), before, "{line}");
        }
    }

    #[test]
    fn a_move_naming_no_square_is_illegal_once_a_game_is_on() {
        let mut referee = Referee::default();
        let line = r#"{"cmd":"move","from":"z9","to":"b4"}"#;
        assert_eq!(answer(&mut referee, line)["error"]["code"], "no_game");
        answer(&mut referee, &new_line(4));
        let before = referee.game().cloned();
        for line in [line, r#"{"cmd":"move","from":"b4","to":"b9"}"#] {
            let a = answer(&mut referee, line);
            assert_eq!(a["error"]["code"], "illegal_move", "{line}");
            let message = a["error"]["message"].as_str().unwrap();
            assert!(
                message.contains("is not a square of the board"),
                "{message}"
            );
            assert_eq!(referee.game().cloned(), before, "{line}");
        }
        let resign = r#"{"cmd":"resign","side":"gote"}"#;
        assert_eq!(answer(&mut referee, resign)["ok"], true);
        assert_eq!(answer(&mut referee, line)["error"]["code"], "game_over");
    }

    #[test]
    fn invalid_setups_list_the_violations_of_both_sides() {
        let mut referee = Referee::default();
        let line = r#"{"cmd":"new","setup":{"sente":{"b4":"mine","zz":"spy"},"gote":{"b8":"flag","a5":"dragon"}}}"#;
        let a = answer(&mut referee, line);
        assert_eq!(a["error"]["code"], "invalid_setup");
        let message = a["error"]["message"].as_str().unwrap();
        for part in [
            "sente",
            "gote",
            "b4",
            "\"zz\"",
            "b8",
            "\"dragon\"",
            "entrance",
            "back row",
        ] {
            assert!(message.contains(part), "{part} missing from {message}");
        }
        assert!(referee.game().is_none());
    }

    /// Mangled versions of good requests (cut short, bytes replaced, bytes dropped) are each
    /// answered by one JSON line; a refused one leaves the game exactly as it was.
    #[test]
    fn mangled_requests_are_answered_and_refusals_change_nothing() {
        use gunjin::rand::rngs::SmallRng;
        use gunjin::rand::{RngExt, SeedableRng};

        let mut rng = SmallRng::seed_from_u64(99);
        let mut referee = Referee::default();
        answer(&mut referee, &new_line(5));
        let good = [
            new_line(6),
            r#"{"cmd":"move","from":"b4","to":"b5"}"#.to_owned(),
            r#"{"cmd":"view","side":"gote"}"#.to_owned(),
            r#"{"cmd":"resign","side":"sente"}"#.to_owned(),
            r#"{"cmd":"legal_moves"}"#.to_owned(),
        ];
        const NOISE: &[u8] = br#"{}[]":,0123456789abcdefz -_\"#;
        let mut refused = 0;
        for _ in 0..3000 {
            let mut bytes = good[rng.random_range(0..good.len())].clone().into_bytes();
            for _ in 0..rng.random_range(1..4) {
                let i = rng.random_range(0..bytes.len());
                match rng.random_range(0..3) {
                    0 => bytes.truncate(i),
                    1 => bytes[i] = NOISE[rng.random_range(0..NOISE.len())],
                    _ => {
                        bytes.remove(i);
                    }
                }
                if bytes.is_empty() {
                    bytes.push(b'{');
                }
            }
            let line = String::from_utf8(bytes).unwrap();
            let before = referee.game().cloned();
            let text = referee.handle(&line);
            assert!(!text.contains('\n'), "{text}");
            let a: Value = serde_json::from_str(&text).unwrap();
            if a["ok"] == false {
                refused += 1;
                assert_eq!(referee.game().cloned(), before, "{line}");
                let code = a["error"]["code"].as_str().unwrap();
                assert!(
                    [
                        "bad_json",
                        "bad_request",
                        "unknown_cmd",
                        "invalid_setup",
                        "illegal_move",
                        "game_over",
                        "no_game"
                    ]
                    .contains(&code),
                    "{code}"
                );
            } else {
                assert_eq!(a["ok"], true, "{text}");
            }
            if !referee.game().is_some_and(|g| g.status().is_ongoing()) {
                answer(&mut referee, &new_line(rng.random_range(0..1000)));
            }
        }
        assert!(refused > 1000, "most mangled lines are refused: {refused}");
    }
}
