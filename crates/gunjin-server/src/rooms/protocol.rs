//! The two closed message sets of a room's WebSocket, parsed once at the edge.
//! `docs/protocol.md` is the reference for clients.

use gunjin::{BySide, Side};
use serde::{Deserialize, Serialize};

use super::game::RefereeGame;

/// The two seats of a room: the creator (`host`, sente in the first game) and the friend who
/// joined (`guest`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    Host,
    Guest,
}

impl Seat {
    /// Both seats.
    pub const ALL: [Seat; 2] = [Seat::Host, Seat::Guest];

    /// The other seat.
    #[must_use]
    pub const fn other(self) -> Seat {
        match self {
            Seat::Host => Seat::Guest,
            Seat::Guest => Seat::Host,
        }
    }

    /// 0 for the host, 1 for the guest.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Stable id.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Seat::Host => "host",
            Seat::Guest => "guest",
        }
    }
}

/// Every error a client can be told, with its stable id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The frame is not JSON text.
    BadJson,
    /// JSON of the wrong shape: unknown `t`, a missing, mistyped or unknown field.
    BadRequest,
    /// The frame is longer than the protocol allows.
    TooLarge,
    /// Too many messages too fast; this one was dropped.
    RateLimited,
    /// A message other than `hello` before a successful `hello`.
    NotAuthenticated,
    /// A second `hello` on the same connection.
    AlreadyAuthenticated,
    /// The token is not one of this room's seat tokens.
    BadToken,
    /// No such room (never existed, expired, or a malformed id).
    NoRoom,
    /// Both seats are taken.
    RoomFull,
    /// The room was closed (see the `closed` event); no more play.
    RoomClosed,
    /// The set-up breaks a rule; `details.violations` lists each.
    InvalidSetup,
    /// `arrange`/`unarrange` outside the arranging phase.
    NotArranging,
    /// `move`/`resign` when no game is being played.
    NotPlaying,
    /// A move when the other side is to move.
    NotYourTurn,
    /// A move whose `v` is not the player's latest version: the client missed events.
    StaleVersion,
    /// The move breaks the rules.
    IllegalMove,
    /// `rematch` before the game has ended.
    NotFinished,
    /// `abandon` without a standing offer (the opponent has not been away long enough) by a
    /// player who is not the host still waiting for a friend.
    NotOffered,
    /// A request from a page of another site (HTTP 403, before any WebSocket).
    ForbiddenOrigin,
    /// (HTTP 404) No endpoint of the API at that path.
    NotFound,
    /// (HTTP 405) The endpoint does not take that method.
    MethodNotAllowed,
    /// A newer connection (another tab or device) took this seat; this connection closes after
    /// this message. A client should not reconnect on its own, or two tabs would take the seat
    /// from each other for ever: reconnecting takes the seat back.
    Replaced,
    /// The server failed; the request may be retried.
    Internal,
}

impl ErrorCode {
    /// The stable id clients are told (`no_room`, `rate_limited`…).
    #[must_use]
    pub fn id(self) -> String {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::String(id)) => id,
            _ => format!("{self:?}"),
        }
    }

    /// The HTTP status for this error on the HTTP endpoints.
    #[must_use]
    pub fn http_status(self) -> u16 {
        match self {
            ErrorCode::NoRoom => 404,
            ErrorCode::RoomFull => 409,
            ErrorCode::RoomClosed => 410,
            ErrorCode::ForbiddenOrigin => 403,
            ErrorCode::NotFound => 404,
            ErrorCode::MethodNotAllowed => 405,
            ErrorCode::Internal => 500,
            ErrorCode::RateLimited => 429,
            _ => 400,
        }
    }
}

/// Client → server.
#[derive(Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
#[serde(bound(deserialize = ""))]
pub enum ClientMsg<G: RefereeGame> {
    /// Takes the seat the token belongs to. `since`: the last version this client holds (0:
    /// none); the server replays what follows or sends a `sync`.
    Hello {
        token: String,
        #[serde(default)]
        since: u64,
    },
    /// Confirms a set-up ("confirm and wait"); replaces an earlier one.
    Arrange { setup: G::Setup },
    /// Withdraws the confirmed set-up while the game has not started.
    Unarrange {},
    /// Plays a move. `v` is the latest version the client holds.
    Move {
        #[serde(rename = "move")]
        mv: G::Move,
        v: u64,
    },
    /// Resigns the game being played.
    Resign {},
    /// Asks for (or accepts) another game with sides swapped.
    Rematch {},
    /// Takes the standing CPU offer, or (the host, while no friend has joined) gives up waiting:
    /// closes the room, ending any game unfinished.
    Abandon {},
    /// Asks for a full `sync`.
    Sync {},
    /// Asks for a `pong`.
    Ping {},
}

/// Which player an event is about, seen from its recipient.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    You,
    Opponent,
}

/// Whether the opponent is there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    /// No one has joined the guest seat yet.
    None,
    /// The opponent has a live connection.
    Connected,
    /// The opponent has a seat but no live connection.
    Away,
}

/// Why a room closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CloseReason {
    /// A player took the CPU offer while the opponent was away.
    Abandoned,
    /// 30 minutes with nobody connected, or 24 hours after creation.
    Expired,
}

/// The phase of a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseId {
    Arranging,
    Playing,
    Finished,
    Closed,
}

/// Rematch requests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RematchState {
    pub you: bool,
    pub opponent: bool,
}

/// A whole room as one player may know it.
#[derive(Serialize)]
#[serde(bound(serialize = ""))]
pub struct RoomSync<G: RefereeGame> {
    pub seat: Seat,
    pub phase: PhaseId,
    /// The game's number in this room, from 1.
    pub game: u32,
    /// The recipient's side in that game.
    pub side: Side,
    pub opponent: Presence,
    pub you_ready: bool,
    pub opponent_ready: bool,
    /// The recipient's confirmed set-up, while arranging.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<G::Deployment>,
    /// The recipient's view, while playing or after the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub view: Option<G::View>,
    /// Both set-ups, after the end only (to replay the game from its start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setups: Option<BySide<G::Deployment>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<G::Legal>,
    pub rematch: RematchState,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed: Option<CloseReason>,
    pub cpu_offer: bool,
    /// How long the opponent must be away before the offer stands, in seconds (this server's
    /// setting; the page says it in words).
    pub cpu_offer_after_s: u64,
}

/// Server → client. The variants with `v` are the player's versioned events (gapless from 1);
/// the others are replies and notices that carry no version of their own.
#[derive(Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
#[serde(bound(serialize = ""))]
pub enum ServerMsg<G: RefereeGame> {
    /// Versioned: the friend took the guest seat (to the host).
    Joined { v: u64 },
    /// Versioned: a game's arranging phase opened; you play `side`.
    Arranging { v: u64, game: u32, side: Side },
    /// Versioned: `who` confirmed (`ready: true`) or withdrew a set-up.
    Ready { v: u64, who: Who, ready: bool },
    /// Versioned: the game began; your view, and your legal moves if you move first.
    Started {
        v: u64,
        game: u32,
        side: Side,
        view: G::View,
        #[serde(skip_serializing_if = "Option::is_none")]
        legal: Option<G::Legal>,
    },
    /// Versioned: a ply was played (by either side).
    Moved {
        v: u64,
        ply: G::Ply,
        to_move: Side,
        status: G::Status,
        #[serde(skip_serializing_if = "Option::is_none")]
        legal: Option<G::Legal>,
    },
    /// Versioned: the game ended; the view reveals everything, and `setups` holds both sides'
    /// set-ups so the game can be replayed from its start.
    Ended {
        v: u64,
        status: G::Status,
        view: G::View,
        setups: BySide<G::Deployment>,
    },
    /// Versioned: `who` asked for another game with sides swapped.
    Rematch { v: u64, who: Who },
    /// Versioned: the room closed.
    Closed { v: u64, reason: CloseReason },
    /// After `hello`: you hold `seat`; replayed events follow (if any).
    Welcome { v: u64, seat: Seat },
    /// The whole room as you may know it; your version is now `v`.
    Sync { v: u64, room: RoomSync<G> },
    /// The opponent's connection changed.
    Presence { opponent: Presence },
    /// The opponent has been away for the offer delay (`away_s` seconds): you may `abandon` and
    /// play the CPU.
    CpuOffer { away_s: u64 },
    /// Reply to `ping`.
    Pong,
    /// A request was refused; nothing changed.
    Error {
        code: ErrorCode,
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        details: Option<serde_json::Value>,
    },
}

/// Reads a client frame, or says why it cannot be read.
///
/// A frame that names a key twice is `bad_request` (JSON parsers would keep one of the two
/// silently), except an `arrange` whose setup names a square twice: its setup keeps both
/// entries, and the room's check of the setup refuses it (`invalid_setup`, naming both pieces).
pub fn parse_client<G: RefereeGame>(text: &str) -> Result<ClientMsg<G>, (ErrorCode, String)> {
    // A derived reader also takes a message's fields as an array (`["ping"]`, `["hello","…",0]`),
    // which is no shape of ours: every message is an object.
    if !text.trim_start().starts_with('{') {
        return Err(match serde_json::from_str::<serde::de::IgnoredAny>(text) {
            Ok(_) => (
                ErrorCode::BadRequest,
                r#"a message is a JSON object such as {"t":"ping"}"#.to_owned(),
            ),
            Err(e) => (ErrorCode::BadJson, e.to_string()),
        });
    }
    let msg = serde_json::from_str(text).map_err(|e| {
        if too_deep_but_json(text, &e) {
            return (
                ErrorCode::BadRequest,
                "the JSON is nested 128 levels deep or more: no message has that shape".to_owned(),
            );
        }
        let code = match e.classify() {
            // JSON by the grammar that no message holds (`1e999`, a lone `"\ud800"`) is of the
            // wrong shape, not unreadable.
            serde_json::error::Category::Syntax
                if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() =>
            {
                ErrorCode::BadRequest
            }
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                ErrorCode::BadJson
            }
            _ => ErrorCode::BadRequest,
        };
        (code, e.to_string())
    })?;
    match gunjin::wire::repeated_key(&mut serde_json::Deserializer::from_str(text)) {
        Some(repeated)
            if matches!(msg, ClientMsg::Arrange { .. }) && repeated.is_in(&["setup"]) =>
        {
            Ok(msg)
        }
        Some(repeated) => Err((ErrorCode::BadRequest, repeated.to_string())),
        None => Ok(msg),
    }
}

/// Whether a parse error of `text` is `serde_json` giving up on depth (it reads at most 128
/// levels, and calls the rest a syntax error) in a text that is JSON all the same: skipping a
/// value has no depth limit, so it tells the two apart.
fn too_deep_but_json(text: &str, error: &serde_json::Error) -> bool {
    error.to_string().starts_with("recursion limit exceeded")
        && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rooms::game::Gunjin;

    fn code(text: &str) -> Option<ErrorCode> {
        parse_client::<Gunjin>(text).err().map(|(c, _)| c)
    }

    #[test]
    fn an_error_reads_as_its_wire_id() {
        assert_eq!(ErrorCode::NoRoom.id(), "no_room");
        assert_eq!(
            crate::rooms::RoomError(ErrorCode::RateLimited).to_string(),
            "room error: rate_limited"
        );
    }

    #[test]
    fn every_client_message_parses() {
        for text in [
            r#"{"t":"hello","token":"x","since":3}"#,
            r#"{"t":"hello","token":"x"}"#,
            r#"{"t":"arrange","setup":{"a1":"general"}}"#,
            r#"{"t":"unarrange"}"#,
            r#"{"t":"move","move":{"from":"b3","to":"b4"},"v":7}"#,
            r#"{"t":"resign"}"#,
            r#"{"t":"rematch"}"#,
            r#"{"t":"abandon"}"#,
            r#"{"t":"sync"}"#,
            r#"{"t":"ping"}"#,
        ] {
            assert_eq!(code(text), None, "{text}");
        }
    }

    #[test]
    fn malformed_input_gets_a_stable_code() {
        assert_eq!(code("{"), Some(ErrorCode::BadJson));
        assert_eq!(code("hello"), Some(ErrorCode::BadJson));
        // JSON by the grammar that no message holds: of the wrong shape, not unreadable.
        assert_eq!(
            code(r#"{"t":"ping","x":1e999}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(r#"{"t":"ping","x":"\ud800"}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(code(r#"{"t":"ping","x":"\q"}"#), Some(ErrorCode::BadJson));
        assert_eq!(code(r#"{"t":"fly"}"#), Some(ErrorCode::BadRequest));
        assert_eq!(code(r#"{"token":"x"}"#), Some(ErrorCode::BadRequest));
        assert_eq!(code(r#"{"t":"ping","x":1}"#), Some(ErrorCode::BadRequest));
        assert_eq!(
            code(r#"{"t":"move","move":{"from":"b3","to":"z9"},"v":1}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(r#"{"t":"move","move":{"from":"b3","to":"b4"}}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(r#"{"t":"move","move":{"from":"b3","to":"b4","x":0},"v":1}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(code("[]"), Some(ErrorCode::BadRequest));
        // A message's fields in an array are not a message, though a derived reader takes them.
        assert_eq!(code(r#"["ping"]"#), Some(ErrorCode::BadRequest));
        assert_eq!(code(r#"["hello","x",0]"#), Some(ErrorCode::BadRequest));
        assert_eq!(
            code(r#"["arrange",{"a1":"general"}]"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(code(r#" "ping" "#), Some(ErrorCode::BadRequest));
        assert_eq!(code("42"), Some(ErrorCode::BadRequest));
        assert_eq!(code("[[[["), Some(ErrorCode::BadJson));
        assert_eq!(code(""), Some(ErrorCode::BadJson));
        // JSON nested deeper than the parser reads is still JSON, of no message's shape; the
        // same depth left unclosed is not JSON.
        let deep = format!(
            r#"{{"t":"ping","x":{}{}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        assert_eq!(code(&deep), Some(ErrorCode::BadRequest));
        let unclosed = format!(r#"{{"t":"ping","x":{}"#, "[".repeat(200));
        assert_eq!(code(&unclosed), Some(ErrorCode::BadJson));
        // A move is an object: the array form a derived reader would take is no shape of ours.
        assert_eq!(
            code(r#"{"t":"move","move":["b3","b4"],"v":1}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(r#"{"t":"move","move":{"from":"b3"},"v":1}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(r#"{"t":"move","move":{"from":"b3","to":"b4"},"v":1}"#),
            None
        );
        // A square named twice is read with both entries: the room's check of the setup
        // refuses it (see `game.rs`), naming both pieces.
        match parse_client::<Gunjin>(
            r#"{"t":"arrange","setup":{"a1":"flag","a2":"mine","a1":"mine"}}"#,
        ) {
            Ok(ClientMsg::Arrange { setup }) => assert_eq!(
                setup.pairs().collect::<Vec<_>>(),
                [("a1", "flag"), ("a2", "mine"), ("a1", "mine")]
            ),
            _ => panic!("an arrange naming a square twice is read, not refused"),
        }
        // The same object in any other message is of no message's shape.
        assert_eq!(
            code(r#"{"t":"ping","setup":{"a1":"flag","a1":"mine"}}"#),
            Some(ErrorCode::BadRequest)
        );
        assert_eq!(
            code(r#"{"t":"resign","t":"ping"}"#),
            Some(ErrorCode::BadRequest)
        );
    }

    #[test]
    fn error_codes_serialize_to_their_ids() {
        let id = serde_json::to_value(ErrorCode::StaleVersion).unwrap();
        assert_eq!(id, "stale_version");
        assert_eq!(ErrorCode::RoomFull.http_status(), 409);
    }
}
