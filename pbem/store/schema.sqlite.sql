-- the store's tables at migration 0011: written by `python -m pbem.store.schema`, do not edit
CREATE TABLE games (
	id INTEGER NOT NULL,
	name VARCHAR NOT NULL,
	ruleset VARCHAR NOT NULL,
	seed VARCHAR NOT NULL,
	setup TEXT NOT NULL,
	created_at DATETIME NOT NULL,
	PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ix_games_name ON games (name);

CREATE TABLE mail_inbox (
	id INTEGER NOT NULL,
	origin VARCHAR NOT NULL,
	failed_since DATETIME,
	error TEXT,
	checked_at DATETIME NOT NULL,
	PRIMARY KEY (id)
);

CREATE TABLE mail_outbox (
	id INTEGER NOT NULL,
	message_id VARCHAR NOT NULL,
	recipient VARCHAR NOT NULL,
	subject VARCHAR NOT NULL,
	purpose VARCHAR NOT NULL,
	data BLOB NOT NULL,
	state VARCHAR NOT NULL,
	attempts INTEGER NOT NULL,
	last_error VARCHAR,
	queued_at DATETIME NOT NULL,
	sent_at DATETIME,
	PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ix_mail_outbox_message_id ON mail_outbox (message_id);

CREATE INDEX ix_mail_outbox_state ON mail_outbox (state);

CREATE TABLE mail_received (
	id INTEGER NOT NULL,
	"key" VARCHAR NOT NULL,
	message_id VARCHAR,
	received_at DATETIME NOT NULL,
	read_at DATETIME,
	origin VARCHAR NOT NULL,
	archived VARCHAR NOT NULL,
	sender VARCHAR NOT NULL,
	size INTEGER NOT NULL,
	outcome VARCHAR NOT NULL,
	kind VARCHAR NOT NULL,
	game VARCHAR,
	player VARCHAR,
	detail TEXT NOT NULL,
	PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ix_mail_received_key ON mail_received ("key");

CREATE INDEX ix_mail_received_message_id ON mail_received (message_id);

CREATE TABLE reports_owed (
	id INTEGER NOT NULL,
	game VARCHAR NOT NULL,
	turn INTEGER NOT NULL,
	folder VARCHAR NOT NULL,
	since DATETIME NOT NULL,
	error TEXT,
	PRIMARY KEY (id),
	UNIQUE (game, turn, folder)
);

CREATE INDEX ix_reports_owed_game ON reports_owed (game);

CREATE TABLE dealt_hands (
	id INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	turn INTEGER NOT NULL,
	holder VARCHAR NOT NULL,
	cards TEXT NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (game_id, turn, holder),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE INDEX ix_dealt_hands_game_id ON dealt_hands (game_id);

CREATE TABLE events (
	id INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	turn INTEGER NOT NULL,
	seq INTEGER NOT NULL,
	board VARCHAR NOT NULL,
	stage INTEGER NOT NULL,
	kind VARCHAR NOT NULL,
	data TEXT NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (game_id, turn, seq),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE INDEX ix_events_game_id ON events (game_id);

CREATE TABLE game_schedules (
	id INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	schedule TEXT NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (game_id),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE TABLE gm_events (
	id INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	at DATETIME NOT NULL,
	kind VARCHAR NOT NULL,
	player VARCHAR,
	data TEXT NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE INDEX ix_gm_events_game_id ON gm_events (game_id);

CREATE TABLE players (
	id INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	position INTEGER NOT NULL,
	name VARCHAR NOT NULL,
	email VARCHAR NOT NULL,
	secret VARCHAR NOT NULL,
	timezone VARCHAR,
	PRIMARY KEY (id),
	UNIQUE (game_id, name),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE INDEX ix_players_game_id ON players (game_id);

CREATE TABLE state_snapshots (
	id INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	turn INTEGER NOT NULL,
	kind VARCHAR NOT NULL,
	board VARCHAR NOT NULL,
	stage INTEGER NOT NULL,
	state TEXT NOT NULL,
	hash VARCHAR NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (game_id, turn, kind, board, stage),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE INDEX ix_state_snapshots_game_id ON state_snapshots (game_id);

CREATE TABLE turn_deadlines (
	id INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	turn INTEGER NOT NULL,
	dealt_at DATETIME NOT NULL,
	due_at DATETIME NOT NULL,
	reminded TEXT NOT NULL,
	held_at DATETIME,
	held_hash VARCHAR,
	approved BOOLEAN NOT NULL,
	about TEXT,
	PRIMARY KEY (id),
	UNIQUE (game_id, turn),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE INDEX ix_turn_deadlines_game_id ON turn_deadlines (game_id);

CREATE TABLE turns (
	id INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	number INTEGER NOT NULL,
	seed VARCHAR NOT NULL,
	before_hash VARCHAR NOT NULL,
	after_hash VARCHAR NOT NULL,
	events_hash VARCHAR NOT NULL,
	orders TEXT NOT NULL,
	processed_at DATETIME NOT NULL,
	over BOOLEAN,
	missed TEXT,
	PRIMARY KEY (id),
	UNIQUE (game_id, number),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE INDEX ix_turns_game_id ON turns (game_id);

CREATE TABLE order_versions (
	id INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	turn INTEGER NOT NULL,
	player_id INTEGER,
	version INTEGER NOT NULL,
	source VARCHAR NOT NULL,
	text TEXT NOT NULL,
	submission TEXT NOT NULL,
	submitted_at DATETIME,
	accepted BOOLEAN DEFAULT 1 NOT NULL,
	reason TEXT,
	mail VARCHAR,
	actor VARCHAR,
	PRIMARY KEY (id),
	UNIQUE (game_id, turn, player_id, version),
	FOREIGN KEY(game_id) REFERENCES games (id),
	FOREIGN KEY(player_id) REFERENCES players (id)
);

CREATE INDEX ix_order_versions_game_id ON order_versions (game_id);

CREATE TABLE robots (
	id INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	player_id INTEGER NOT NULL,
	position INTEGER NOT NULL,
	name VARCHAR NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (game_id, name),
	FOREIGN KEY(game_id) REFERENCES games (id),
	FOREIGN KEY(player_id) REFERENCES players (id)
);

CREATE INDEX ix_robots_game_id ON robots (game_id);
