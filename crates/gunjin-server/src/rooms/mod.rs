//! Online rooms: the server as referee.
