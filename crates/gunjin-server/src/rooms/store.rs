//! SQLite persistence: one thread owns the connection and commits writes in batches; every
//! room waits for its write to be committed before it tells the players.
//!
//! Tables: `rooms` (one row per room: times, per-seat versions as of the snapshot and a JSON
//! snapshot of everything but the current game's plies), `plies` (the moves of each game, appended one by one) and
//! `games` (the record of each finished game). The snapshot holds only digests of the seat
//! tokens (a copy of the database seats nobody), and never goes to a log.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::{mpsc, oneshot};

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database: {0}")]
    Failed(String),
    #[error("the storage thread has stopped")]
    Stopped,
    #[error("could not start the storage thread: {0}")]
    Thread(#[from] std::io::Error),
}

/// One write.
#[derive(Clone, Debug)]
pub enum Write {
    /// Inserts or replaces a room's row.
    Room {
        id: String,
        game: &'static str,
        created_at: u64,
        empty_since: Option<u64>,
        versions: [u64; 2],
        snapshot: String,
    },
    /// Appends a ply. (Each ply is one event per seat, so the versions stored with the room
    /// plus the plies since give the current versions.)
    Ply {
        id: String,
        game_no: u32,
        index: u32,
        mv: String,
    },
    /// The record of a finished game.
    Record {
        id: String,
        game_no: u32,
        record: String,
    },
    /// When the room became empty (`None`: someone is connected).
    EmptySince { id: String, at: Option<u64> },
    /// Removes a room with its plies and records.
    Delete { id: String },
}

/// A stored room as read back.
#[derive(Debug)]
pub struct StoredRoom {
    pub game: String,
    pub created_at: u64,
    pub empty_since: Option<u64>,
    pub versions: [u64; 2],
    pub snapshot: String,
    /// The moves of game `game_no` (as asked), in order.
    pub plies: Vec<String>,
}

enum Req {
    Write {
        writes: Vec<Write>,
        ack: oneshot::Sender<Result<(), String>>,
    },
    Load {
        id: String,
        game_no_of: fn(&str) -> Option<u32>,
        reply: oneshot::Sender<Result<Option<StoredRoom>, String>>,
    },
    Expired {
        created_before: u64,
        empty_before: u64,
        reply: oneshot::Sender<Result<Vec<String>, String>>,
    },
    Count {
        reply: oneshot::Sender<Result<u64, String>>,
    },
}

/// A handle on the storage thread.
#[derive(Clone)]
pub struct Store {
    tx: mpsc::Sender<Req>,
    stats: std::sync::Arc<StoreStats>,
}

/// Counters of the storage thread (for benchmarks and monitoring).
#[derive(Debug, Default)]
pub struct StoreStats {
    /// Transactions committed.
    pub commits: std::sync::atomic::AtomicU64,
    /// Writes in them.
    pub writes: std::sync::atomic::AtomicU64,
    /// Total time spent committing, in microseconds.
    pub commit_us: std::sync::atomic::AtomicU64,
    /// The longest commit, in microseconds.
    pub max_commit_us: std::sync::atomic::AtomicU64,
    /// Rooms looked up (found or not).
    pub loads: std::sync::atomic::AtomicU64,
}

/// The size the write-ahead log is cut back to once its writes are in the database. Without a
/// limit SQLite keeps the file at the largest size a burst of writes ever gave it.
const WAL_SIZE_LIMIT: u64 = 4 * 1024 * 1024;

const SCHEMA: &str = "
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    empty_since INTEGER,
    v_host INTEGER NOT NULL,
    v_guest INTEGER NOT NULL,
    snapshot TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS plies (
    room TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    mv TEXT NOT NULL,
    PRIMARY KEY (room, game_no, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS games (
    room TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (room, game_no)
) WITHOUT ROWID;
";

const MAX_BATCH: usize = 512;

fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn to_u64(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

impl Store {
    /// Opens (or creates) the database at `path` and starts the storage thread. Rooms whose
    /// connections were cut by a stop count as empty from `now_ms`.
    ///
    /// # Errors
    /// [`StoreError`] if the file cannot be opened or the schema cannot be created.
    pub fn open(path: &Path, now_ms: u64) -> Result<Store, StoreError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        conn.execute_batch(&format!("PRAGMA journal_size_limit = {WAL_SIZE_LIMIT};"))?;
        conn.execute(
            "UPDATE rooms SET empty_since = ?1 WHERE empty_since IS NULL",
            params![to_i64(now_ms)],
        )?;
        // Checkpoints (which copy the WAL into the database and sync it) run on their own
        // connection and thread, so commits never wait for a disk sync.
        conn.execute_batch("PRAGMA wal_autocheckpoint = 0;")?;
        let checkpointer = Connection::open(path)?;
        checkpointer.busy_timeout(std::time::Duration::from_secs(5))?;
        let (tx, rx) = mpsc::channel(4096);
        let stats = std::sync::Arc::new(StoreStats::default());
        let watch = std::sync::Arc::downgrade(&stats);
        let thread_stats = std::sync::Arc::clone(&stats);
        std::thread::Builder::new()
            .name("rooms-store".into())
            .spawn(move || run(conn, rx, &thread_stats))?;
        std::thread::Builder::new()
            .name("rooms-checkpoint".into())
            .spawn(move || {
                while watch.strong_count() > 0 {
                    std::thread::sleep(std::time::Duration::from_millis(500));
                    if let Err(e) = checkpointer.execute_batch("PRAGMA wal_checkpoint(PASSIVE);") {
                        tracing::warn!(error = %e, "rooms store: checkpoint failed");
                    }
                }
            })?;
        Ok(Store { tx, stats })
    }

    /// The storage thread's counters.
    #[must_use]
    pub fn stats(&self) -> &StoreStats {
        &self.stats
    }

    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, String>>) -> Req,
    ) -> Result<T, StoreError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(make(reply))
            .await
            .map_err(|_| StoreError::Stopped)?;
        match rx.await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(message)) => Err(StoreError::Failed(message)),
            Err(_) => Err(StoreError::Stopped),
        }
    }

    /// Commits `writes` (together with whatever else is waiting) and returns once they are on
    /// disk as far as a killed process is concerned.
    ///
    /// # Errors
    /// [`StoreError`] if the transaction failed; nothing of it is stored then.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        if writes.is_empty() {
            return Ok(());
        }
        self.ask(|ack| Req::Write { writes, ack }).await
    }

    /// Reads a room and the plies of its current game (`game_no_of` reads the game number out
    /// of the snapshot).
    ///
    /// # Errors
    /// [`StoreError`] on a database failure.
    pub async fn load(
        &self,
        id: &str,
        game_no_of: fn(&str) -> Option<u32>,
    ) -> Result<Option<StoredRoom>, StoreError> {
        let id = id.to_owned();
        self.stats
            .loads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.ask(|reply| Req::Load {
            id,
            game_no_of,
            reply,
        })
        .await
    }

    /// Ids of stored rooms created before `created_before` or empty since before
    /// `empty_before`.
    ///
    /// # Errors
    /// [`StoreError`] on a database failure.
    pub async fn expired(
        &self,
        created_before: u64,
        empty_before: u64,
    ) -> Result<Vec<String>, StoreError> {
        self.ask(|reply| Req::Expired {
            created_before,
            empty_before,
            reply,
        })
        .await
    }

    /// How many rooms are stored.
    ///
    /// # Errors
    /// [`StoreError`] on a database failure.
    pub async fn count(&self) -> Result<u64, StoreError> {
        self.ask(|reply| Req::Count { reply }).await
    }
}

/// Write requests waiting for the next commit, each with who waits for its outcome.
type Batch = Vec<(Vec<Write>, oneshot::Sender<Result<(), String>>)>;

fn flush(conn: &mut Connection, batch: &mut Batch, stats: &StoreStats) {
    use std::sync::atomic::Ordering::Relaxed;
    if batch.is_empty() {
        return;
    }
    let started = std::time::Instant::now();
    let results = apply(conn, batch).unwrap_or_else(|e| {
        tracing::error!(error = %e, "rooms store: write failed");
        vec![Err(e.to_string()); batch.len()]
    });
    let us = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
    stats.commits.fetch_add(1, Relaxed);
    let writes: usize = batch.iter().map(|(w, _)| w.len()).sum();
    stats.writes.fetch_add(writes as u64, Relaxed);
    stats.commit_us.fetch_add(us, Relaxed);
    stats.max_commit_us.fetch_max(us, Relaxed);
    for ((_, ack), result) in batch.drain(..).zip(results) {
        let _ = ack.send(result);
    }
}

fn run(mut conn: Connection, mut rx: mpsc::Receiver<Req>, stats: &StoreStats) {
    let mut batch: Batch = Vec::new();
    while let Some(first) = rx.blocking_recv() {
        let mut next = Some(first);
        while let Some(req) = next.take() {
            if !matches!(req, Req::Write { .. }) {
                // Reads see every write sent before them.
                flush(&mut conn, &mut batch, stats);
            }
            match req {
                Req::Write { writes, ack } => batch.push((writes, ack)),
                Req::Load {
                    id,
                    game_no_of,
                    reply,
                } => {
                    let _ = reply.send(load(&conn, &id, game_no_of).map_err(|e| e.to_string()));
                }
                Req::Expired {
                    created_before,
                    empty_before,
                    reply,
                } => {
                    let _ = reply.send(
                        expired(&conn, created_before, empty_before).map_err(|e| e.to_string()),
                    );
                }
                Req::Count { reply } => {
                    let n = conn
                        .query_row("SELECT COUNT(*) FROM rooms", [], |r| r.get::<_, i64>(0))
                        .map(to_u64)
                        .map_err(|e| e.to_string());
                    let _ = reply.send(n);
                }
            }
            if batch.len() < MAX_BATCH {
                next = rx.try_recv().ok();
            }
        }
        flush(&mut conn, &mut batch, stats);
    }
}

/// Stores a batch in one transaction, each request under its own savepoint: one that fails (a
/// room whose rows cannot be written) leaves the others stored, and is told so alone. `Err`: the
/// transaction itself failed, and nothing was stored.
fn apply(conn: &mut Connection, batch: &Batch) -> rusqlite::Result<Vec<Result<(), String>>> {
    let mut tx = conn.transaction()?;
    let mut results = Vec::with_capacity(batch.len());
    for (writes, _) in batch {
        let savepoint = tx.savepoint()?;
        match apply_writes(&savepoint, writes) {
            Ok(()) => {
                savepoint.commit()?;
                results.push(Ok(()));
            }
            Err(e) => {
                tracing::error!(error = %e, "rooms store: a room's write failed; the rest of its batch is stored");
                // Dropped, the savepoint rolls its writes back.
                results.push(Err(e.to_string()));
            }
        }
    }
    tx.commit()?;
    Ok(results)
}

fn apply_writes(tx: &Connection, writes: &[Write]) -> rusqlite::Result<()> {
    for w in writes {
        match w {
            Write::Room {
                id,
                game,
                created_at,
                empty_since,
                versions,
                snapshot,
            } => {
                tx.prepare_cached(
                    "INSERT OR REPLACE INTO rooms
                     (id, game, created_at, empty_since, v_host, v_guest, snapshot)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )?
                .execute(params![
                    id,
                    game,
                    to_i64(*created_at),
                    empty_since.map(to_i64),
                    to_i64(versions[0]),
                    to_i64(versions[1]),
                    snapshot
                ])?;
            }
            Write::Ply {
                id,
                game_no,
                index,
                mv,
            } => {
                tx.prepare_cached(
                    "INSERT OR REPLACE INTO plies (room, game_no, idx, mv) VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![id, game_no, index, mv])?;
            }
            Write::Record {
                id,
                game_no,
                record,
            } => {
                tx.prepare_cached(
                    "INSERT OR REPLACE INTO games (room, game_no, record) VALUES (?1, ?2, ?3)",
                )?
                .execute(params![id, game_no, record])?;
            }
            Write::EmptySince { id, at } => {
                tx.prepare_cached("UPDATE rooms SET empty_since = ?2 WHERE id = ?1")?
                    .execute(params![id, at.map(to_i64)])?;
            }
            Write::Delete { id } => {
                for sql in [
                    "DELETE FROM rooms WHERE id = ?1",
                    "DELETE FROM plies WHERE room = ?1",
                    "DELETE FROM games WHERE room = ?1",
                ] {
                    tx.prepare_cached(sql)?.execute(params![id])?;
                }
            }
        }
    }
    Ok(())
}

fn load(
    conn: &Connection,
    id: &str,
    game_no_of: fn(&str) -> Option<u32>,
) -> rusqlite::Result<Option<StoredRoom>> {
    let row = conn
        .query_row(
            "SELECT game, created_at, empty_since, v_host, v_guest, snapshot FROM rooms WHERE id = ?1",
            params![id],
            |r| {
                Ok(StoredRoom {
                    game: r.get(0)?,
                    created_at: to_u64(r.get(1)?),
                    empty_since: r.get::<_, Option<i64>>(2)?.map(to_u64),
                    versions: [to_u64(r.get(3)?), to_u64(r.get(4)?)],
                    snapshot: r.get(5)?,
                    plies: Vec::new(),
                })
            },
        )
        .optional()?;
    let Some(mut room) = row else {
        return Ok(None);
    };
    if let Some(game_no) = game_no_of(&room.snapshot) {
        let mut stmt = conn
            .prepare_cached("SELECT mv FROM plies WHERE room = ?1 AND game_no = ?2 ORDER BY idx")?;
        room.plies = stmt
            .query_map(params![id, game_no], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
    }
    Ok(Some(room))
}

fn expired(
    conn: &Connection,
    created_before: u64,
    empty_before: u64,
) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM rooms WHERE created_at <= ?1 OR (empty_since IS NOT NULL AND empty_since <= ?2)",
    )?;
    stmt.query_map(params![to_i64(created_before), to_i64(empty_before)], |r| {
        r.get(0)
    })?
    .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn ply(room: &str) -> Write {
        Write::Ply {
            id: room.to_owned(),
            game_no: 0,
            index: 0,
            mv: "b3-b4".to_owned(),
        }
    }

    /// A burst of writes (one transaction of 12 MB) grows the log; once they are copied into
    /// the database, the next write cuts it back to the limit.
    #[tokio::test]
    async fn the_write_ahead_log_shrinks_back_after_a_burst() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!("gunjin-wal-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rooms.sqlite3");
        let wal = dir.join("rooms.sqlite3-wal");
        let store = Store::open(&path, 0).unwrap();
        let room = |i: usize, snapshot: String| Write::Room {
            id: format!("r{i}"),
            game: "standard",
            created_at: 0,
            empty_since: None,
            versions: [0, 0],
            snapshot,
        };
        let burst: Vec<Write> = (0..200).map(|i| room(i, "x".repeat(64 * 1024))).collect();
        store.write(burst).await.unwrap();
        let grown = std::fs::metadata(&wal).unwrap().len();
        assert!(grown > WAL_SIZE_LIMIT, "the burst's log is {grown} bytes");
        // The checkpoint thread copies the log into the database on its own schedule: wait for it.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        let mut size = grown;
        while size > WAL_SIZE_LIMIT && std::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            store
                .write(vec![room(0, "small".to_owned())])
                .await
                .unwrap();
            size = std::fs::metadata(&wal).unwrap().len();
        }
        drop(store);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            size <= WAL_SIZE_LIMIT,
            "the log stayed at {size} bytes after a burst of {grown}"
        );
    }

    /// One room whose rows cannot be written (a hand-made trigger here; a full disk or a
    /// corrupt page in life) must not fail the other rooms' moves committed with it.
    #[test]
    fn a_request_that_fails_leaves_the_rest_of_its_batch_stored() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(SCHEMA).unwrap();
        conn.execute_batch(
            "CREATE TRIGGER no_a BEFORE INSERT ON plies WHEN NEW.room = 'A'
             BEGIN SELECT RAISE(ABORT, 'room A cannot be written'); END;",
        )
        .unwrap();
        let (a, _) = oneshot::channel();
        let (b, _) = oneshot::channel();
        let (c, _) = oneshot::channel();
        let batch: Batch = vec![
            (vec![ply("B")], b),
            (vec![ply("C"), ply("A")], a),
            (vec![ply("C2")], c),
        ];
        let results = apply(&mut conn, &batch).unwrap();
        assert_eq!(results[0], Ok(()));
        assert!(results[1].as_ref().is_err_and(|e| e.contains("room A")));
        assert_eq!(results[2], Ok(()));
        let rooms: Vec<String> = conn
            .prepare("SELECT room FROM plies ORDER BY room")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        // The failed request is stored in none of its parts (C went with A).
        assert_eq!(rooms, ["B", "C2"]);
    }
}
