//! `gunjin bot`: the CPU player over JSON lines. Stateless: every request carries everything.
//!
//! - `{"cmd":"setup","side":"sente","level":"advanced","seed":7}` →
//!   `{"ok":true,"setup":{"a1":"general",…}}`
//! - `{"cmd":"go","view":<a view as the referee's view command gives it>,"level":"advanced",
//!   "seed":7,"time_ms":1000}` → `{"ok":true,"move":["b3","b4"]}`. `time_ms` and `nodes` are
//!   optional limits; without either the level does its own fixed amount of work. `time_ms` is
//!   turned into nodes (`Budget::steady_ms`), so the answer does not depend on the machine's
//!   load; the clock only stops a search that has taken eight times the time (two seconds at
//!   least).
//!
//! Errors answer `{"ok":false,"error":{"code":"…","message":"…"}}` like the referee's: `bad_json`,
//! `bad_request` (wrong shape, unknown level or side), `unknown_cmd`, `bad_view` (a view that
//! does not hold together), `no_move` (not the viewer's turn, or the game is over). Every line
//! gets one answer (a blank one is `bad_json`), as with the referee. Levels: `beginner`,
//! `intermediate`, `advanced`, and the baselines `random` and `greedy`.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

use crate::json_text::{self, LineRefusal};
use crate::referee::read_line;

use gunjin::wire::WireView;
use gunjin::{CAMP_SQUARES, Deployment, Kind, Move, PlayerView, Ruleset, Setup, Side, Square};
use gunjin_ai::{
    Belief, Budget, Level, Tracked, choose_deployment, choose_move, greedy_move, random_move,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Why a bot request was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    #[error("not JSON: {0}")]
    BadJson(String),
    #[error("{0}")]
    BadRequest(String),
    #[error("unknown command {0:?}; known: setup, go")]
    UnknownCmd(String),
    #[error("{0}")]
    BadView(String),
    #[error("no move: it is not the viewer's turn or the game is over")]
    NoMove,
}

impl From<LineRefusal> for BotError {
    fn from(r: LineRefusal) -> Self {
        match r {
            LineRefusal::NotJson(why) => BotError::BadJson(why),
            LineRefusal::WrongShape(why) => BotError::BadRequest(why),
        }
    }
}

impl BotError {
    /// The stable code on the wire.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            BotError::BadJson(_) => "bad_json",
            BotError::BadRequest(_) => "bad_request",
            BotError::UnknownCmd(_) => "unknown_cmd",
            BotError::BadView(_) => "bad_view",
            BotError::NoMove => "no_move",
        }
    }
}

/// A player the bot can be asked to be: a level or a view-only baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotLevel {
    Level(Level),
    Random,
    Greedy,
}

impl BotLevel {
    /// Parses `beginner`, `intermediate`, `advanced`, `random` or `greedy`.
    #[must_use]
    pub fn from_id(id: &str) -> Option<BotLevel> {
        match id {
            "random" => Some(BotLevel::Random),
            "greedy" => Some(BotLevel::Greedy),
            _ => Level::from_id(id).map(BotLevel::Level),
        }
    }

    /// The move this player chooses from `view`.
    #[must_use]
    pub fn choose(self, view: &PlayerView, budget: &Budget<'_>, seed: u64) -> Option<Move> {
        match self {
            BotLevel::Level(level) => choose_move(view, level, budget, seed),
            BotLevel::Random => random_move(view, seed),
            BotLevel::Greedy => greedy_move(view, budget, seed),
        }
    }
}

#[derive(Deserialize)]
struct SetupRequest {
    side: String,
    level: String,
    #[serde(default)]
    seed: u64,
}

#[derive(Deserialize)]
struct GoRequest {
    view: WireView,
    level: String,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    time_ms: Option<u64>,
    #[serde(default)]
    nodes: Option<u64>,
}

#[derive(Serialize)]
struct SetupAnswer {
    ok: bool,
    setup: BTreeMap<Square, Kind>,
}

#[derive(Serialize)]
struct MoveAnswer {
    ok: bool,
    #[serde(rename = "move")]
    mv: Move,
}

/// Answers every request line of `input` on `output` until the end of `input`.
///
/// # Errors
/// Only I/O errors of the streams; bad requests are answered.
pub fn run(mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut line = Vec::new();
    while let Some(too_long) = read_line(&mut input, &mut line)? {
        let answer = if too_long {
            error_line(&json_text::overlong(&line).into())
        } else {
            match std::str::from_utf8(&line) {
                Ok(text) => handle(text),
                Err(e) => error_line(&BotError::BadJson(format!("the line is not UTF-8: {e}"))),
            }
        };
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
    Ok(())
}

/// Answers one request line (without the newline).
#[must_use]
pub fn handle(line: &str) -> String {
    match answer(line) {
        Ok(s) => s,
        Err(e) => error_line(&e),
    }
}

fn error_line(e: &BotError) -> String {
    json_text::refusal_line(e.code(), e.to_string())
}

fn answer(line: &str) -> Result<String, BotError> {
    let value = json_text::parse_line(line)?;
    let Value::Object(fields) = value else {
        return Err(BotError::BadRequest("a request is a JSON object".into()));
    };
    let cmd = match fields.get("cmd") {
        Some(Value::String(c)) => c.clone(),
        _ => return Err(BotError::BadRequest("\"cmd\" must be a string".into())),
    };
    let bad = |e: serde_json::Error| BotError::BadRequest(e.to_string());
    match cmd.as_str() {
        "setup" => {
            let req: SetupRequest = serde_json::from_value(Value::Object(fields)).map_err(bad)?;
            let side = Side::from_id(&req.side)
                .ok_or_else(|| BotError::BadRequest(format!("unknown side {:?}", req.side)))?;
            let level = match BotLevel::from_id(&req.level) {
                Some(BotLevel::Level(l)) => l,
                Some(_) => Level::Beginner,
                None => return Err(unknown_level(&req.level)),
            };
            let setup = choose_deployment(side, level, req.seed).to_wire();
            serde_json::to_string(&SetupAnswer { ok: true, setup })
                .map_err(|e| BotError::BadRequest(e.to_string()))
        }
        "go" => {
            view_shape(fields.get("view"))?;
            let req: GoRequest = serde_json::from_value(Value::Object(fields)).map_err(bad)?;
            let level = BotLevel::from_id(&req.level).ok_or_else(|| unknown_level(&req.level))?;
            let view =
                PlayerView::try_from(req.view).map_err(|e| BotError::BadView(e.to_string()))?;
            check_view(&view)?;
            // The same view and seed give the same move however busy the machine is: the time
            // sets an amount of work, and the clock only stops a search that would overrun it.
            let mut budget = match req.time_ms {
                Some(ms) => Budget::steady_ms(ms),
                None => Budget::unlimited(),
            };
            if let Some(n) = req.nodes {
                budget = budget.and_nodes(n);
            }
            let mv = level
                .choose(&view, &budget, req.seed)
                .ok_or(BotError::NoMove)?;
            serde_json::to_string(&MoveAnswer { ok: true, mv })
                .map_err(|e| BotError::BadRequest(e.to_string()))
        }
        other => Err(BotError::UnknownCmd(other.to_owned())),
    }
}

/// Refuses a view whose records are not objects: serde reads a record from an array of its
/// fields in order too, a shape the referee never writes.
fn view_shape(view: Option<&Value>) -> Result<(), BotError> {
    fn object<'v>(value: &'v Value, what: &str) -> Result<&'v Map<String, Value>, BotError> {
        match value {
            Value::Object(fields) => Ok(fields),
            _ => Err(BotError::BadRequest(format!(
                "{what} must be an object, as the referee's view command gives it"
            ))),
        }
    }
    // Left out, the view is missing, which the request's own parsing says.
    let Some(view) = view else { return Ok(()) };
    let fields = object(view, "field \"view\"")?;
    for key in ["status", "pieces", "removed"] {
        if let Some(value) = fields.get(key) {
            object(value, &format!("the view's {key:?}"))?;
        }
    }
    if let Some(Value::Object(pieces)) = fields.get("pieces") {
        for (square, piece) in pieces {
            object(piece, &format!("the piece on {square:?}"))?;
        }
    }
    if let Some(Value::Array(history)) = fields.get("history") {
        for (n, ply) in history.iter().enumerate() {
            let ply = object(ply, &format!("ply {n} of the history"))?;
            if let Some(battle) = ply.get("battle").filter(|b| !b.is_null()) {
                object(battle, &format!("the battle of ply {n}"))?;
            }
        }
    }
    Ok(())
}

/// Refuses an ongoing game's view that does not hold together: its history must replay from the
/// full camps to its board, plies alternate from sente, `to_move`, `plies_without_battle` and
/// the removed pieces must follow from the history, the viewer's pieces must make a legal
/// deployment that could have made its moves, and the battles must fit some enemy deployment.
/// (The CPU would otherwise quietly fall back on the squares alone and answer a move for a game
/// that cannot exist.) A finished game's view is not checked: it gets `no_move` anyway.
fn check_view(view: &PlayerView) -> Result<(), BotError> {
    if !view.status().is_ongoing() {
        return Ok(());
    }
    let bad = |message: String| Err(BotError::BadView(message));
    let tracked = Tracked::from_view(view).map_err(|e| BotError::BadView(e.to_string()))?;
    let history = view.history();
    let turn = |n: usize| {
        if n.is_multiple_of(2) {
            Side::Sente
        } else {
            Side::Gote
        }
    };
    if let Some((n, ply)) = history
        .iter()
        .enumerate()
        .find(|&(n, ply)| ply.side != turn(n))
    {
        return bad(format!(
            "ply {n} is {}'s, but {} moves then",
            ply.side,
            turn(n)
        ));
    }
    if view.to_move() != turn(history.len()) {
        return bad(format!(
            "after {} plies {} is to move, not {}",
            history.len(),
            turn(history.len()),
            view.to_move()
        ));
    }
    let quiet = history
        .iter()
        .rev()
        .take_while(|p| p.battle.is_none())
        .count();
    if usize::from(view.plies_without_battle()) != quiet {
        return bad(format!(
            "the history ends with {quiet} plies without a battle, not {}",
            view.plies_without_battle()
        ));
    }
    if usize::from(view.removed_enemy_count()) + view.enemy().len() != CAMP_SQUARES {
        return bad(format!(
            "{} enemy pieces on the board and {} removed make no camp of {CAMP_SQUARES}",
            view.enemy().len(),
            view.removed_enemy_count()
        ));
    }
    let me = view.side();
    let initial = &tracked.initial[me.index()];
    let setup = Setup {
        pieces: initial.iter().copied().zip(tracked.own_kinds).collect(),
        unparsed: Vec::new(),
    };
    if let Err(e) = Deployment::new(me, &setup, &Ruleset::STANDARD) {
        return bad(format!(
            "the viewer's pieces started as no legal deployment: {e}"
        ));
    }
    let allowed = &tracked.moves_allow[me.index()];
    if let Some(i) = (0..CAMP_SQUARES).find(|&i| !allowed[i].contains(tracked.own_kinds[i])) {
        return bad(format!(
            "the {} that started on {} made a move it cannot make",
            tracked.own_kinds[i], initial[i]
        ));
    }
    if !Belief::of_enemy(view).is_exact() {
        return bad("the battles in the history fit no enemy deployment".to_owned());
    }
    Ok(())
}

fn unknown_level(id: &str) -> BotError {
    BotError::BadRequest(format!(
        "unknown level {id:?}; known: beginner, intermediate, advanced, random, greedy"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gunjin::{BySide, Deployment, Game, Ruleset};

    fn parse(s: &str) -> Value {
        serde_json::from_str(s).expect("json")
    }

    #[test]
    fn setup_answers_a_legal_deployment() {
        let a = parse(&handle(
            r#"{"cmd":"setup","side":"gote","level":"advanced","seed":7}"#,
        ));
        assert_eq!(a["ok"], true);
        let map: BTreeMap<String, String> =
            serde_json::from_value(a["setup"].clone()).expect("setup map");
        assert_eq!(map.len(), 23);
        let setup = gunjin::Setup::from_wire(&map);
        assert!(Deployment::new(Side::Gote, &setup, &Ruleset::STANDARD).is_ok());
    }

    #[test]
    fn go_answers_a_legal_move_from_the_referees_view() {
        let game = Game::new(
            Ruleset::STANDARD,
            BySide::new_with(|s| Deployment::auto(s, 5)),
        )
        .expect("game");
        let view = serde_json::to_string(&WireView::from(&game.view(Side::Sente))).expect("view");
        let line =
            format!(r#"{{"cmd":"go","view":{view},"level":"intermediate","seed":3,"nodes":5000}}"#);
        let a = parse(&handle(&line));
        assert_eq!(a["ok"], true, "{a}");
        let mv: Move = serde_json::from_value(a["move"].clone()).expect("move");
        assert!(game.position().is_legal(mv));
        // Same request, same answer.
        assert_eq!(parse(&handle(&line)), a);
        // Gote's view while sente is to move: no move.
        let view = serde_json::to_string(&WireView::from(&game.view(Side::Gote))).expect("view");
        let line = format!(r#"{{"cmd":"go","view":{view},"level":"beginner"}}"#);
        assert_eq!(parse(&handle(&line))["error"]["code"], "no_move");
    }

    #[test]
    fn every_line_gets_one_answer_and_a_blank_one_is_bad_json() {
        let mut out = Vec::new();
        run(&b"\n  \n{\"cmd\":\"dance\"}\n"[..], &mut out).expect("run");
        let codes: Vec<Value> = String::from_utf8(out)
            .expect("utf-8")
            .lines()
            .map(|l| parse(l)["error"]["code"].clone())
            .collect();
        assert_eq!(codes, ["bad_json", "bad_json", "unknown_cmd"]);
    }

    #[test]
    fn a_refusal_reads_like_the_referees() {
        assert_eq!(
            handle(r#"{"cmd":"dance"}"#),
            r#"{"ok":false,"error":{"code":"unknown_cmd","message":"unknown command \"dance\"; known: setup, go"}}"#
        );
    }

    #[test]
    fn errors_have_stable_codes() {
        let code = |l: &str| parse(&handle(l))["error"]["code"].clone();
        assert_eq!(code("{"), "bad_json");
        assert_eq!(code(r#"{"cmd":"dance"}"#), "unknown_cmd");
        assert_eq!(
            code(r#"{"cmd":"setup","side":"north","level":"advanced"}"#),
            "bad_request"
        );
        assert_eq!(
            code(r#"{"cmd":"setup","side":"sente","level":"expert"}"#),
            "bad_request"
        );
        assert_eq!(code(r#"{"cmd":"go","level":"advanced"}"#), "bad_request");
        let deep = format!("{}{}", "[".repeat(1_000), "]".repeat(1_000));
        assert_eq!(code(&deep), "bad_request");
        assert_eq!(code(&"[".repeat(1_000)), "bad_json");
        // An enemy kind in an ongoing view is refused.
        let game = Game::new(
            Ruleset::STANDARD,
            BySide::new_with(|s| Deployment::auto(s, 5)),
        )
        .expect("game");
        let mut wire = serde_json::to_value(WireView::from(&game.view(Side::Sente))).expect("v");
        wire["pieces"]["a5"]["kind"] = Value::String("spy".into());
        let line = serde_json::json!({"cmd":"go","view":wire,"level":"advanced"}).to_string();
        assert_eq!(code(&line), "bad_view");
    }

    /// serde reads a record from an array of its fields too; the bot takes objects only.
    #[test]
    fn a_view_with_a_record_as_an_array_is_of_the_wrong_shape() {
        let mut game = Game::new(
            Ruleset::STANDARD,
            BySide::new_with(|s| Deployment::auto(s, 5)),
        )
        .expect("game");
        let opening = game.position().legal_moves()[0];
        game.play(opening).expect("legal");
        let reply = game.position().legal_moves()[0];
        game.play(reply).expect("legal");
        let wire = serde_json::to_value(WireView::from(&game.view(Side::Sente))).expect("view");
        let answer = |view: &Value| {
            let line = serde_json::json!({"cmd":"go","view":view,"level":"beginner","nodes":500});
            parse(&handle(&line.to_string()))
        };
        assert_eq!(answer(&wire)["ok"], true);
        let fields_of = |v: &Value| -> Value {
            Value::Array(v.as_object().expect("object").values().cloned().collect())
        };
        let mut as_arrays = vec![fields_of(&wire), Value::Null];
        for path in [
            &["removed"][..],
            &["status"],
            &["pieces", "a1"],
            &["history", "0"],
            &["history", "0", "battle"],
        ] {
            let mut view = wire.clone();
            let mut at = &mut view;
            for key in path {
                at = match key.parse::<usize>() {
                    Ok(i) => &mut at[i],
                    Err(_) => &mut at[*key],
                };
            }
            *at = fields_of(at);
            as_arrays.push(view);
        }
        for view in &as_arrays {
            let a = answer(view);
            assert_eq!(a["error"]["code"], "bad_request", "{view}: {a}");
            assert!(
                a["error"]["message"]
                    .as_str()
                    .expect("message")
                    .contains("must be an object"),
                "{a}"
            );
        }
        // An own piece without its kind is named as such, not as a finished game's.
        let mut view = wire.clone();
        view["pieces"]["a1"]
            .as_object_mut()
            .expect("piece")
            .remove("kind");
        let a = answer(&view);
        assert_eq!(a["error"]["code"], "bad_view");
        assert!(
            a["error"]["message"] == "the viewer's own piece on a1 has no kind",
            "{a}"
        );
    }
}
