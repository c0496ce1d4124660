//! The CPU player for the page (run in a Web Worker so the page never freezes).
//!
//! The CPU's only input about a game is one side's view as JSON (`gunjin::wire::WireView`, the
//! shape [`crate::GameHandle::view`] answers): it never receives a [`crate::GameHandle`]. A view
//! that names an enemy kind while the game goes on is refused ([`CpuError::BadView`]), so the
//! page cannot hand the CPU the hidden kinds even by mistake.

use gunjin::wire::WireView;
use gunjin::{PlayerView, Side};
use gunjin_ai::{Budget, Level, choose_deployment, choose_move};
use wasm_bindgen::prelude::*;

/// Why the CPU could not answer.
#[derive(Debug, thiserror::Error)]
pub enum CpuError {
    /// A level id other than `"beginner"`, `"intermediate"`, `"advanced"`.
    #[error("{0:?} is not a CPU level")]
    BadLevel(String),
    /// A side id other than `"sente"` / `"gote"`.
    #[error("{0:?} is not a side")]
    BadSide(String),
    /// Text that is not a view, or a view that does not hold together (an enemy kind while the
    /// game goes on, among others).
    #[error("bad view: {0}")]
    BadView(String),
    /// It is not the viewer's turn, or the game is over.
    #[error("no move: it is not the viewer's turn or the game is over")]
    NoMove,
}

impl From<CpuError> for JsValue {
    fn from(e: CpuError) -> JsValue {
        JsError::new(&e.to_string()).into()
    }
}

fn level_of(id: &str) -> Result<Level, CpuError> {
    Level::from_id(id).ok_or_else(|| CpuError::BadLevel(id.to_owned()))
}

/// Parses a view as JSON into a [`PlayerView`], refusing one that carries hidden kinds.
///
/// # Errors
/// [`CpuError::BadView`] for text of another shape or a view that does not hold together.
pub fn parse_view(json: &str) -> Result<PlayerView, CpuError> {
    let wire: WireView =
        serde_json::from_str(json).map_err(|e| CpuError::BadView(e.to_string()))?;
    PlayerView::try_from(wire).map_err(|e| CpuError::BadView(e.to_string()))
}

/// The CPU's move from a view (JSON) within `budget`, as JSON `["b3","b4"]`.
///
/// # Errors
/// An unknown level, a bad view, or no move to make.
pub fn cpu_move_json(
    view: &str,
    level: &str,
    seed: u64,
    budget: &Budget<'_>,
) -> Result<String, CpuError> {
    let level = level_of(level)?;
    let view = parse_view(view)?;
    let mv = choose_move(&view, level, budget, seed).ok_or(CpuError::NoMove)?;
    Ok(crate::to_json(&mv))
}

/// The CPU's deployment of `side` at `level`, as JSON (square → kind).
///
/// # Errors
/// An unknown side or level.
#[wasm_bindgen(js_name = cpuDeployment)]
pub fn cpu_deployment(side: &str, level: &str, seed: u32) -> Result<String, CpuError> {
    let side = Side::from_id(side).ok_or_else(|| CpuError::BadSide(side.to_owned()))?;
    let level = level_of(level)?;
    // The deployment is asked for before the player arranges: time to build what the level's
    // first move would otherwise spend its budget on.
    gunjin_ai::prepare(level);
    Ok(crate::to_json(
        &choose_deployment(side, level, u64::from(seed)).to_wire(),
    ))
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
extern "C" {
    /// `performance.now()` of the page or the worker (both have it as a global).
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// The CPU's move for the side whose view this is (JSON, as `GameHandle.view` gives it),
/// thinking at most about `time_ms` milliseconds by `performance.now()` (0 or less: the level's
/// own fixed amount of work, no clock). Answers JSON `["b3","b4"]`.
///
/// # Errors
/// An unknown level, a bad view (an enemy kind while the game goes on is refused), or no move
/// (not the viewer's turn, or the game is over).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen(js_name = cpuMove)]
pub fn cpu_move(view: &str, level: &str, seed: u32, time_ms: f64) -> Result<String, CpuError> {
    let clock = || performance_now();
    let budget = if time_ms.is_finite() && time_ms > 0.0 {
        Budget::with_clock(time_ms, &clock)
    } else {
        Budget::unlimited()
    };
    cpu_move_json(view, level, u64::from(seed), &budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameHandle;

    fn game(seed: u32) -> GameHandle {
        let sente = crate::auto_deployment("sente", seed).unwrap();
        let gote = crate::auto_deployment("gote", seed + 1).unwrap();
        GameHandle::new(&sente, &gote).unwrap()
    }

    fn legal(handle: &GameHandle) -> Vec<(String, String)> {
        serde_json::from_str(&handle.legal_moves()).unwrap()
    }

    #[test]
    fn every_level_moves_legally_from_the_view_alone() {
        for level in ["beginner", "intermediate", "advanced"] {
            let mut handle = game(3);
            for _ in 0..4 {
                let side = handle.to_move();
                let view = handle.view(&side).unwrap();
                let answer = cpu_move_json(&view, level, 7, &Budget::nodes(3_000)).unwrap();
                let (from, to): (String, String) = serde_json::from_str(&answer).unwrap();
                assert!(
                    legal(&handle).contains(&(from.clone(), to.clone())),
                    "{level}"
                );
                handle.play(&from, &to).unwrap();
            }
        }
    }

    #[test]
    fn a_view_with_enemy_kinds_is_refused_while_the_game_goes_on() {
        let handle = game(5);
        let view = handle.view("sente").unwrap();
        let mut wire: serde_json::Value = serde_json::from_str(&view).unwrap();
        let pieces = wire["pieces"].as_object_mut().unwrap();
        let (_, enemy) = pieces
            .iter_mut()
            .find(|(_, p)| p["side"] == "gote")
            .unwrap();
        enemy["kind"] = "general".into();
        let err = cpu_move_json(&wire.to_string(), "beginner", 1, &Budget::nodes(1_000));
        assert!(matches!(err, Err(CpuError::BadView(_))), "{err:?}");
    }

    #[test]
    fn refuses_bad_levels_views_and_wrong_turns() {
        let handle = game(9);
        let sente = handle.view("sente").unwrap();
        assert!(matches!(
            cpu_move_json(&sente, "expert", 1, &Budget::nodes(100)),
            Err(CpuError::BadLevel(_))
        ));
        assert!(matches!(
            cpu_move_json("{}", "beginner", 1, &Budget::nodes(100)),
            Err(CpuError::BadView(_))
        ));
        let gote = handle.view("gote").unwrap();
        assert!(matches!(
            cpu_move_json(&gote, "beginner", 1, &Budget::nodes(100)),
            Err(CpuError::NoMove)
        ));
    }

    #[test]
    fn deployments_are_valid_for_every_level_and_side() {
        for level in ["beginner", "intermediate", "advanced"] {
            for side in ["sente", "gote"] {
                let d = cpu_deployment(side, level, 11).unwrap();
                assert_eq!(crate::validate(side, &d).unwrap(), r#"{"ok":true}"#);
            }
        }
        assert!(cpu_deployment("nobody", "beginner", 1).is_err());
        assert!(cpu_deployment("sente", "expert", 1).is_err());
    }
}
