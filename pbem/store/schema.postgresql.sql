-- the store's tables at migration 0011: written by `python -m pbem.store.schema`, do not edit
CREATE TABLE games (
	id SERIAL NOT NULL,
	name VARCHAR NOT NULL,
	ruleset VARCHAR NOT NULL,
	seed VARCHAR NOT NULL,
	setup TEXT NOT NULL,
	created_at TIMESTAMP WITH TIME ZONE NOT NULL,
	PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ix_games_name ON games (name);

CREATE TABLE mail_inbox (
	id SERIAL NOT NULL,
	origin VARCHAR NOT NULL,
	failed_since TIMESTAMP WITH TIME ZONE,
	error TEXT,
	checked_at TIMESTAMP WITH TIME ZONE NOT NULL,
	PRIMARY KEY (id)
);

CREATE TABLE mail_outbox (
	id SERIAL NOT NULL,
	message_id VARCHAR NOT NULL,
	recipient VARCHAR NOT NULL,
	subject VARCHAR NOT NULL,
	purpose VARCHAR NOT NULL,
	data BYTEA NOT NULL,
	state VARCHAR NOT NULL,
	attempts INTEGER NOT NULL,
	last_error VARCHAR,
	queued_at TIMESTAMP WITH TIME ZONE NOT NULL,
	sent_at TIMESTAMP WITH TIME ZONE,
	PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ix_mail_outbox_message_id ON mail_outbox (message_id);

CREATE INDEX ix_mail_outbox_state ON mail_outbox (state);

CREATE TABLE mail_received (
	id SERIAL NOT NULL,
	key VARCHAR NOT NULL,
	message_id VARCHAR,
	received_at TIMESTAMP WITH TIME ZONE NOT NULL,
	read_at TIMESTAMP WITH TIME ZONE,
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

CREATE UNIQUE INDEX ix_mail_received_key ON mail_received (key);

CREATE INDEX ix_mail_received_message_id ON mail_received (message_id);

CREATE TABLE reports_owed (
	id SERIAL NOT NULL,
	game VARCHAR NOT NULL,
	turn INTEGER NOT NULL,
	folder VARCHAR NOT NULL,
	since TIMESTAMP WITH TIME ZONE NOT NULL,
	error TEXT,
	PRIMARY KEY (id),
	UNIQUE (game, turn, folder)
);

CREATE INDEX ix_reports_owed_game ON reports_owed (game);

CREATE TABLE dealt_hands (
	id SERIAL NOT NULL,
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
	id SERIAL NOT NULL,
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
	id SERIAL NOT NULL,
	game_id INTEGER NOT NULL,
	schedule TEXT NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (game_id),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE TABLE gm_events (
	id SERIAL NOT NULL,
	game_id INTEGER NOT NULL,
	at TIMESTAMP WITH TIME ZONE NOT NULL,
	kind VARCHAR NOT NULL,
	player VARCHAR,
	data TEXT NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE INDEX ix_gm_events_game_id ON gm_events (game_id);

CREATE TABLE players (
	id SERIAL NOT NULL,
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
	id SERIAL NOT NULL,
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
	id SERIAL NOT NULL,
	game_id INTEGER NOT NULL,
	turn INTEGER NOT NULL,
	dealt_at TIMESTAMP WITH TIME ZONE NOT NULL,
	due_at TIMESTAMP WITH TIME ZONE NOT NULL,
	reminded TEXT NOT NULL,
	held_at TIMESTAMP WITH TIME ZONE,
	held_hash VARCHAR,
	approved BOOLEAN NOT NULL,
	about TEXT,
	PRIMARY KEY (id),
	UNIQUE (game_id, turn),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE INDEX ix_turn_deadlines_game_id ON turn_deadlines (game_id);

CREATE TABLE turns (
	id SERIAL NOT NULL,
	game_id INTEGER NOT NULL,
	number INTEGER NOT NULL,
	seed VARCHAR NOT NULL,
	before_hash VARCHAR NOT NULL,
	after_hash VARCHAR NOT NULL,
	events_hash VARCHAR NOT NULL,
	orders TEXT NOT NULL,
	processed_at TIMESTAMP WITH TIME ZONE NOT NULL,
	"over" BOOLEAN,
	missed TEXT,
	PRIMARY KEY (id),
	UNIQUE (game_id, number),
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE INDEX ix_turns_game_id ON turns (game_id);

CREATE TABLE order_versions (
	id SERIAL NOT NULL,
	game_id INTEGER NOT NULL,
	turn INTEGER NOT NULL,
	player_id INTEGER,
	version INTEGER NOT NULL,
	source VARCHAR NOT NULL,
	text TEXT NOT NULL,
	submission TEXT NOT NULL,
	submitted_at TIMESTAMP WITH TIME ZONE,
	accepted BOOLEAN DEFAULT true NOT NULL,
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
	id SERIAL NOT NULL,
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
