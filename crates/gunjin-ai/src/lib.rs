//! CPU players for Gunjin Shogi.
