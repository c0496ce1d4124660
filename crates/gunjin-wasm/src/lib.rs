//! The browser facade over the rules engine.
//!
//! Every answer is JSON text (the shapes of `gunjin::wire` where one exists), so the same module
//! serves the page's main thread and a Web Worker alike, and the page never re-implements a rule:
//! arrangements, swap checks, destinations, battles, views and the win/loss table all come from
//! the engine.
//!
//! The functions are plain Rust first (`*_json` helpers are tested natively); the
//! `#[wasm_bindgen]` items only forward to them.

use std::collections::BTreeMap;

use gunjin::wire::{WireSetup, WireView};
use gunjin::{
    BySide, Deployment, Game, Kind, MoveError, Outcome, Ruleset, Setup, SetupViolation, Side,
    Square, SwapError, resolve_battle,
};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[cfg(feature = "cpu")]
mod cpu;
#[cfg(feature = "cpu")]
pub use cpu::{CpuError, cpu_deployment, cpu_move_json, parse_view};

/// Why a request from the page could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum FacadeError {
    /// A side id other than `"sente"` / `"gote"`.
    #[error("{0:?} is not a side")]
    BadSide(String),
    /// A square name that names no square.
    #[error("{0:?} is not a square")]
    BadSquare(String),
    /// Text that is not the expected JSON.
    #[error("bad JSON: {0}")]
    BadJson(String),
    /// An arrangement that breaks the setup rules.
    #[error("invalid arrangement ({} problems)", .0.len())]
    InvalidSetup(Vec<Violation>),
    /// A move or resignation the game refused.
    #[error(transparent)]
    Move(MoveError),
}

impl From<FacadeError> for JsValue {
    fn from(e: FacadeError) -> JsValue {
        JsError::new(&e.to_string()).into()
    }
}

/// One broken setup rule, for a message in the page's language: a stable rule id, and the square
/// and kind it concerns when there is one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    pub rule: &'static str,
    pub square: Option<Square>,
    pub kind: Option<Kind>,
}

impl From<&SetupViolation> for Violation {
    fn from(v: &SetupViolation) -> Self {
        let (square, kind) = match v {
            SetupViolation::UnknownSquare { kind, .. } => (None, Kind::from_id(kind)),
            SetupViolation::UnknownKind { square, .. } => (Some(*square), None),
            SetupViolation::OutsideCamp { square, kind, .. } => (Some(*square), Some(*kind)),
            SetupViolation::SquareTwice { square, second, .. } => (Some(*square), Some(*second)),
            SetupViolation::EmptySquare { square } => (Some(*square), None),
            SetupViolation::WrongCount { kind, .. } => (None, Some(*kind)),
            SetupViolation::MineOnEntrance { square } | SetupViolation::MineInHq { square } => {
                (Some(*square), Some(Kind::Mine))
            }
            SetupViolation::FlagOnEntrance { square }
            | SetupViolation::FlagOnBackRow { square } => (Some(*square), Some(Kind::Flag)),
        };
        Violation {
            rule: v.rule_id(),
            square,
            kind,
        }
    }
}

fn side_of(id: &str) -> Result<Side, FacadeError> {
    Side::from_id(id).ok_or_else(|| FacadeError::BadSide(id.to_owned()))
}

fn square_of(name: &str) -> Result<Square, FacadeError> {
    Square::parse(name).ok_or_else(|| FacadeError::BadSquare(name.to_owned()))
}

fn to_json<T: Serialize>(value: &T) -> String {
    // Serializing these plain data types cannot fail; an empty object keeps the page alive if it
    // ever did.
    serde_json::to_string(value).unwrap_or_else(|_| "{}".to_owned())
}

/// Parses an arrangement given as JSON (square name → kind id) for `side`.
///
/// # Errors
/// [`FacadeError::BadJson`] for text of another shape, [`FacadeError::InvalidSetup`] with every
/// broken rule.
pub fn parse_deployment(side: Side, json: &str) -> Result<Deployment, FacadeError> {
    let wire: WireSetup =
        serde_json::from_str(json).map_err(|e| FacadeError::BadJson(e.to_string()))?;
    Deployment::new(side, &Setup::from_wire(&wire), &Ruleset::STANDARD)
        .map_err(|e| FacadeError::InvalidSetup(e.violations.iter().map(Violation::from).collect()))
}

fn deployment_json(d: &Deployment) -> String {
    to_json(&d.to_wire())
}

/// Every kind with its names and counts, in the spec table's order, and the officers who can
/// occupy. JSON: `[{"id":"general","ja":"大将","ko":"대장","en":"general","count":1,
/// "mobile":true,"occupies":true}, …]`.
#[wasm_bindgen]
#[must_use]
pub fn kinds() -> String {
    #[derive(Serialize)]
    struct KindInfo {
        id: &'static str,
        ja: &'static str,
        ko: &'static str,
        en: &'static str,
        count: u8,
        mobile: bool,
        occupies: bool,
    }
    let list: Vec<KindInfo> = Kind::ALL
        .into_iter()
        .map(|k| KindInfo {
            id: k.id(),
            ja: k.name_ja(),
            ko: k.name_ko(),
            en: k.name_en(),
            count: k.count(),
            mobile: k.is_mobile(),
            occupies: k.can_occupy(),
        })
        .collect();
    to_json(&list)
}

/// Every square in reading order from `a1`, with column (0–5; an HQ reports column c) and row,
/// whether it is an HQ or an entrance (a bridge end) and whose camp it lies in: the page lays
/// out its board, and names its squares, from this.
#[wasm_bindgen]
#[must_use]
pub fn squares() -> String {
    #[derive(Serialize)]
    struct SquareInfo {
        name: &'static str,
        col: u8,
        row: u8,
        hq: bool,
        entrance: bool,
        camp: Side,
    }
    let list: Vec<SquareInfo> = Square::all()
        .map(|sq| SquareInfo {
            name: sq.name(),
            col: sq.col(),
            row: sq.row(),
            hq: sq.is_hq(),
            entrance: sq.is_entrance_of(sq.camp()),
            camp: sq.camp(),
        })
        .collect();
    to_json(&list)
}

/// The win/loss table of the standard rules, derived from [`resolve_battle`]: for every mobile
/// attacker, the outcome against every defender kind (the flag with no piece behind it; how the
/// flag really fights is explained beside the table). JSON:
/// `{"attackers":["general",…],"defenders":["general",…,"mine","flag"],
///   "outcomes":[["both","attacker",…],…]}`.
#[wasm_bindgen(js_name = battleTable)]
#[must_use]
pub fn battle_table() -> String {
    #[derive(Serialize)]
    struct Table {
        attackers: Vec<Kind>,
        defenders: Vec<Kind>,
        outcomes: Vec<Vec<Outcome>>,
    }
    let rules = Ruleset::STANDARD;
    let attackers: Vec<Kind> = Kind::ALL.into_iter().filter(|k| k.is_mobile()).collect();
    let defenders: Vec<Kind> = Kind::ALL.to_vec();
    let outcomes = attackers
        .iter()
        .map(|&a| {
            defenders
                .iter()
                .map(|&d| resolve_battle(a, d, None, &rules))
                .collect()
        })
        .collect();
    to_json(&Table {
        attackers,
        defenders,
        outcomes,
    })
}

/// An automatic arrangement (おまかせ) of `side` from `seed`, as JSON (square → kind).
///
/// # Errors
/// An unknown side id.
#[wasm_bindgen(js_name = autoDeployment)]
pub fn auto_deployment(side: &str, seed: u32) -> Result<String, FacadeError> {
    let side = side_of(side)?;
    Ok(deployment_json(&Deployment::auto(side, u64::from(seed))))
}

/// The arrangement mirrored left to right, as JSON.
///
/// # Errors
/// An unknown side or an invalid arrangement.
#[wasm_bindgen]
pub fn mirror(side: &str, deployment: &str) -> Result<String, FacadeError> {
    let d = parse_deployment(side_of(side)?, deployment)?;
    Ok(deployment_json(&d.mirrored()))
}

/// The arrangement carried to the other side (each piece where that player sees the same place
/// from their own end), as JSON: the arrangement last used as sente, offered when playing gote.
///
/// # Errors
/// An unknown side or an invalid arrangement.
#[wasm_bindgen(js_name = turnAround)]
pub fn turn_around(side: &str, deployment: &str) -> Result<String, FacadeError> {
    let d = parse_deployment(side_of(side)?, deployment)?;
    Ok(deployment_json(&d.turned()))
}

/// Checks an arrangement. JSON: `{"ok":true}` or `{"ok":false,"violations":[{"rule":…,
/// "square":…,"kind":…},…]}`. Never throws for a bad arrangement; only for a bad side id.
///
/// # Errors
/// An unknown side id.
#[wasm_bindgen]
pub fn validate(side: &str, deployment: &str) -> Result<String, FacadeError> {
    #[derive(Serialize)]
    struct Answer {
        ok: bool,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        violations: Vec<Violation>,
    }
    let violations = match parse_deployment(side_of(side)?, deployment) {
        Ok(_) => Vec::new(),
        Err(FacadeError::InvalidSetup(v)) => v,
        Err(_) => vec![Violation {
            rule: "bad_json",
            square: None,
            kind: None,
        }],
    };
    Ok(to_json(&Answer {
        ok: violations.is_empty(),
        violations,
    }))
}

/// Swaps the pieces on two squares of an arrangement (the page's two-press swap). JSON:
/// `{"ok":true,"deployment":{…}}` or `{"ok":false,"violation":{"rule":"flag_on_back_row",
/// "square":"a1","kind":"flag"}}` when a mine or the flag would stand where it may not.
///
/// # Errors
/// An unknown side or square, or an invalid arrangement to start from.
#[wasm_bindgen]
pub fn swap(side: &str, deployment: &str, a: &str, b: &str) -> Result<String, FacadeError> {
    let side = side_of(side)?;
    let d = parse_deployment(side, deployment)?;
    let (a, b) = (square_of(a)?, square_of(b)?);
    Ok(swap_answer(&d, a, b))
}

fn swap_answer(d: &Deployment, a: Square, b: Square) -> String {
    #[derive(Serialize)]
    struct Answer {
        ok: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        deployment: Option<BTreeMap<Square, Kind>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        violation: Option<Violation>,
    }
    let answer = match d.swapped(a, b) {
        Ok(next) => Answer {
            ok: true,
            deployment: Some(next.to_wire()),
            violation: None,
        },
        Err(SwapError::Refused(v)) => Answer {
            ok: false,
            deployment: None,
            violation: Some(Violation::from(&v)),
        },
        Err(SwapError::OutsideCamp { square, .. }) => Answer {
            ok: false,
            deployment: None,
            violation: Some(Violation {
                rule: "outside_camp",
                square: Some(square),
                kind: d.kind_at(square),
            }),
        },
    };
    to_json(&answer)
}

/// A game owned by the page: both deployments, the position and the history. It answers per side
/// so that each player's screen is drawn from that player's view only.
#[wasm_bindgen]
pub struct GameHandle {
    game: Game,
}

#[wasm_bindgen]
impl GameHandle {
    /// A new game from both arrangements (JSON, square → kind), sente to move.
    ///
    /// # Errors
    /// An arrangement that is not valid for its side.
    #[wasm_bindgen(constructor)]
    pub fn new(sente: &str, gote: &str) -> Result<GameHandle, FacadeError> {
        let deployments = BySide {
            sente: parse_deployment(Side::Sente, sente)?,
            gote: parse_deployment(Side::Gote, gote)?,
        };
        let game = Game::new(Ruleset::STANDARD, deployments).map_err(|_| {
            FacadeError::InvalidSetup(vec![Violation {
                rule: "outside_camp",
                square: None,
                kind: None,
            }])
        })?;
        Ok(GameHandle { game })
    }

    /// The side to move (`"sente"` / `"gote"`).
    #[wasm_bindgen(js_name = toMove)]
    #[must_use]
    pub fn to_move(&self) -> String {
        self.game.position().to_move().id().to_owned()
    }

    /// The status as JSON (`{"state":"ongoing"}`, `{"state":"won","winner":…,"reason":…}`,
    /// `{"state":"draw","reason":…}`).
    #[must_use]
    pub fn status(&self) -> String {
        to_json(&self.game.status())
    }

    /// `side`'s view as JSON (`gunjin::wire::WireView`): its own kinds, enemy squares without
    /// kinds while the game goes on, everything once it is over.
    ///
    /// # Errors
    /// An unknown side id.
    pub fn view(&self, side: &str) -> Result<String, FacadeError> {
        let view = self.game.view(side_of(side)?);
        Ok(to_json(&WireView::from(&view)))
    }

    /// Where `side`'s piece on `from` can go now, as JSON `{"moves":[…],"attacks":[…]}`. Empty
    /// unless it is `side`'s turn and `from` holds one of its pieces.
    ///
    /// # Errors
    /// An unknown side or square.
    pub fn destinations(&self, side: &str, from: &str) -> Result<String, FacadeError> {
        let side = side_of(side)?;
        let from = square_of(from)?;
        let pos = self.game.position();
        let mine = pos.piece_at(from).is_some_and(|p| p.side == side);
        let dest = if mine && pos.to_move() == side {
            pos.destinations(from)
        } else {
            gunjin::Destinations::default()
        };
        Ok(to_json(&dest))
    }

    /// Every legal move of the side to move, as JSON `[["b3","b4"],…]`.
    #[wasm_bindgen(js_name = legalMoves)]
    #[must_use]
    pub fn legal_moves(&self) -> String {
        to_json(&self.game.position().legal_moves().to_vec())
    }

    /// Plays a move of the side to move. JSON: `{"ply":{"side":…,"from":…,"to":…,
    /// "battle":null|{"square":…,"outcome":…}},"status":{…}}`.
    ///
    /// # Errors
    /// An unknown square, an illegal move or a finished game; the game is unchanged then.
    pub fn play(&mut self, from: &str, to: &str) -> Result<String, FacadeError> {
        let mv = gunjin::Move {
            from: square_of(from)?,
            to: square_of(to)?,
        };
        let ply = self.game.play(mv).map_err(FacadeError::Move)?;
        Ok(play_answer(ply, self.game.status()))
    }

    /// `side` resigns. Returns the status as JSON.
    ///
    /// # Errors
    /// An unknown side or a finished game.
    pub fn resign(&mut self, side: &str) -> Result<String, FacadeError> {
        let status = self
            .game
            .resign(side_of(side)?)
            .map_err(FacadeError::Move)?;
        Ok(to_json(&status))
    }
}

fn play_answer(ply: gunjin::Ply, status: gunjin::Status) -> String {
    #[derive(Serialize)]
    struct Answer {
        ply: gunjin::Ply,
        status: gunjin::Status,
    }
    to_json(&Answer { ply, status })
}

#[cfg(test)]
mod tests;
