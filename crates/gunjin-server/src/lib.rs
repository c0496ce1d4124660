//! The game server: the web app and online rooms.

pub mod rooms;
pub mod serve;
pub mod web;
