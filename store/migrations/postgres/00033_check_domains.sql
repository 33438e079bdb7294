-- +goose Up
-- The checks of the tables a command writes are domains rather than
-- CHECK constraints (issue 40). PostgreSQL evaluates every CHECK
-- constraint of a table on each row any statement inserts or updates,
-- and first reads each constraint's stored expression back from its text
-- form, once per statement: under a load of games that was a tenth of
-- the server's CPU, and an update of a seat's row (eight checks) took
-- 0.27-0.31 ms against 0.20-0.22 ms without them (pgbench, 20,000
-- updates each way). A domain's check is kept parsed by the server, and
-- runs only on a value written to a column of that domain: an update of
-- a seat's deadline checks nothing, one of its decision checks that
-- column. The rules are the same, column by column, and a value that
-- breaks one fails with the same SQLSTATE (23514, check_violation).
--
-- Changing a column to a domain with a check rewrites its table. Each
-- table is altered in one statement, so it is rewritten once: for
-- moves, the largest (a row per move of every game), that is about the
-- time of a copy of the table. events (one check, a row per event) and
-- the tables a command rarely writes keep their CHECK constraints.
-- SQLite's CHECK constraints are compiled into its statements and cost
-- nothing of the kind: its migration 00033 changes nothing.
CREATE DOMAIN nonneg_int AS BIGINT CHECK (VALUE >= 0);
CREATE DOMAIN positive_int AS BIGINT CHECK (VALUE > 0);
CREATE DOMAIN flag01 AS BIGINT CHECK (VALUE IN (0, 1));
CREATE DOMAIN hour_of_day AS BIGINT CHECK (VALUE >= 0 AND VALUE <= 23);
CREATE DOMAIN nonempty_text AS TEXT CHECK (VALUE <> '');
CREATE DOMAIN game_status AS TEXT CHECK (VALUE IN ('inviting', 'active', 'paused', 'finished', 'aborted', 'declined'));
CREATE DOMAIN seat_state AS TEXT CHECK (VALUE IN ('invited', 'joined', 'declined', 'resigned'));
CREATE DOMAIN bot_level AS TEXT CHECK (VALUE IN ('', 'easy', 'normal', 'strong'));
CREATE DOMAIN move_source AS TEXT CHECK (VALUE IN ('mail', 'deadline') OR VALUE LIKE 'admin:_%');
CREATE DOMAIN outbox_state AS TEXT CHECK (VALUE IN ('pending', 'sent', 'dead'));
CREATE DOMAIN mail_notify_setting AS TEXT CHECK (VALUE IN ('all', 'normal', 'turns', 'digest', 'off'));
CREATE DOMAIN notify_setting AS TEXT CHECK (VALUE IN ('all', 'turns', 'off'));

ALTER TABLE games
	DROP CONSTRAINT games_bank_increment_check,
	DROP CONSTRAINT games_bank_max_check,
	DROP CONSTRAINT games_bank_start_check,
	DROP CONSTRAINT games_kind_check,
	DROP CONSTRAINT games_snapshot_seq_check,
	DROP CONSTRAINT games_status_check,
	DROP CONSTRAINT games_turn_time_check,
	DROP CONSTRAINT games_weekends_off_check,
	ALTER COLUMN bank_increment TYPE nonneg_int,
	ALTER COLUMN bank_max TYPE nonneg_int,
	ALTER COLUMN bank_start TYPE nonneg_int,
	ALTER COLUMN kind TYPE nonempty_text,
	ALTER COLUMN snapshot_seq TYPE nonneg_int,
	ALTER COLUMN status TYPE game_status,
	ALTER COLUMN turn_time TYPE positive_int,
	ALTER COLUMN weekends_off TYPE flag01;

ALTER TABLE seats
	DROP CONSTRAINT seats_autopilot_check,
	DROP CONSTRAINT seats_bank_check,
	DROP CONSTRAINT seats_bot_check,
	DROP CONSTRAINT seats_decision_check,
	DROP CONSTRAINT seats_missed_check,
	DROP CONSTRAINT seats_seat_check,
	DROP CONSTRAINT seats_state_check,
	DROP CONSTRAINT seats_token_check,
	ALTER COLUMN autopilot TYPE flag01,
	ALTER COLUMN bank TYPE nonneg_int,
	ALTER COLUMN bot TYPE bot_level,
	ALTER COLUMN decision TYPE nonneg_int,
	ALTER COLUMN missed TYPE nonneg_int,
	ALTER COLUMN seat TYPE nonneg_int,
	ALTER COLUMN state TYPE seat_state,
	ALTER COLUMN token TYPE nonempty_text;

ALTER TABLE players
	DROP CONSTRAINT players_confirm_check,
	DROP CONSTRAINT players_digest_hour_check,
	DROP CONSTRAINT players_mail_notify_check,
	DROP CONSTRAINT players_no_invitations_check,
	DROP CONSTRAINT players_notify_check,
	DROP CONSTRAINT players_quiet_end_check,
	DROP CONSTRAINT players_quiet_start_check,
	DROP CONSTRAINT players_zone_asked_check,
	ALTER COLUMN confirm TYPE flag01,
	ALTER COLUMN digest_hour TYPE hour_of_day,
	ALTER COLUMN mail_notify TYPE mail_notify_setting,
	ALTER COLUMN no_invitations TYPE flag01,
	ALTER COLUMN notify TYPE notify_setting,
	ALTER COLUMN quiet_end TYPE hour_of_day,
	ALTER COLUMN quiet_start TYPE hour_of_day,
	ALTER COLUMN zone_asked TYPE flag01;

ALTER TABLE inbound
	DROP CONSTRAINT inbound_outcome_check,
	ALTER COLUMN outcome TYPE nonempty_text;

ALTER TABLE moves
	DROP CONSTRAINT moves_clock_left_check,
	DROP CONSTRAINT moves_command_check,
	DROP CONSTRAINT moves_seq_check,
	DROP CONSTRAINT moves_source_check,
	ALTER COLUMN clock_left TYPE nonneg_int,
	ALTER COLUMN command TYPE nonempty_text,
	ALTER COLUMN seq TYPE positive_int,
	ALTER COLUMN source TYPE move_source;

ALTER TABLE outbox
	DROP CONSTRAINT outbox_message_id_check,
	DROP CONSTRAINT outbox_rcpt_check,
	DROP CONSTRAINT outbox_state_check,
	ALTER COLUMN message_id TYPE nonempty_text,
	ALTER COLUMN rcpt TYPE nonempty_text,
	ALTER COLUMN state TYPE outbox_state;

ALTER TABLE budget
	DROP CONSTRAINT budget_address_check,
	DROP CONSTRAINT budget_bucket_check,
	ALTER COLUMN address TYPE nonempty_text,
	ALTER COLUMN bucket TYPE nonempty_text;

-- +goose Down
ALTER TABLE budget
	ALTER COLUMN address TYPE TEXT,
	ALTER COLUMN bucket TYPE TEXT,
	ADD CONSTRAINT budget_address_check CHECK (address <> ''),
	ADD CONSTRAINT budget_bucket_check CHECK (bucket <> '');

ALTER TABLE outbox
	ALTER COLUMN message_id TYPE TEXT,
	ALTER COLUMN rcpt TYPE TEXT,
	ALTER COLUMN state TYPE TEXT,
	ADD CONSTRAINT outbox_message_id_check CHECK (message_id <> ''),
	ADD CONSTRAINT outbox_rcpt_check CHECK (rcpt <> ''),
	ADD CONSTRAINT outbox_state_check CHECK (state IN ('pending', 'sent', 'dead'));

ALTER TABLE moves
	ALTER COLUMN clock_left TYPE BIGINT,
	ALTER COLUMN command TYPE TEXT,
	ALTER COLUMN seq TYPE BIGINT,
	ALTER COLUMN source TYPE TEXT,
	ADD CONSTRAINT moves_clock_left_check CHECK (clock_left >= 0),
	ADD CONSTRAINT moves_command_check CHECK (command <> ''),
	ADD CONSTRAINT moves_seq_check CHECK (seq > 0),
	ADD CONSTRAINT moves_source_check CHECK (source IN ('mail', 'deadline') OR source LIKE 'admin:_%');

ALTER TABLE inbound
	ALTER COLUMN outcome TYPE TEXT,
	ADD CONSTRAINT inbound_outcome_check CHECK (outcome <> '');

ALTER TABLE players
	ALTER COLUMN confirm TYPE BIGINT,
	ALTER COLUMN digest_hour TYPE BIGINT,
	ALTER COLUMN mail_notify TYPE TEXT,
	ALTER COLUMN no_invitations TYPE BIGINT,
	ALTER COLUMN notify TYPE TEXT,
	ALTER COLUMN quiet_end TYPE BIGINT,
	ALTER COLUMN quiet_start TYPE BIGINT,
	ALTER COLUMN zone_asked TYPE BIGINT,
	ADD CONSTRAINT players_confirm_check CHECK (confirm IN (0, 1)),
	ADD CONSTRAINT players_digest_hour_check CHECK (digest_hour >= 0 AND digest_hour <= 23),
	ADD CONSTRAINT players_mail_notify_check CHECK (mail_notify IN ('all', 'normal', 'turns', 'digest', 'off')),
	ADD CONSTRAINT players_no_invitations_check CHECK (no_invitations IN (0, 1)),
	ADD CONSTRAINT players_notify_check CHECK (notify IN ('all', 'turns', 'off')),
	ADD CONSTRAINT players_quiet_end_check CHECK (quiet_end >= 0 AND quiet_end <= 23),
	ADD CONSTRAINT players_quiet_start_check CHECK (quiet_start >= 0 AND quiet_start <= 23),
	ADD CONSTRAINT players_zone_asked_check CHECK (zone_asked IN (0, 1));

ALTER TABLE seats
	ALTER COLUMN autopilot TYPE BIGINT,
	ALTER COLUMN bank TYPE BIGINT,
	ALTER COLUMN bot TYPE TEXT,
	ALTER COLUMN decision TYPE BIGINT,
	ALTER COLUMN missed TYPE BIGINT,
	ALTER COLUMN seat TYPE BIGINT,
	ALTER COLUMN state TYPE TEXT,
	ALTER COLUMN token TYPE TEXT,
	ADD CONSTRAINT seats_autopilot_check CHECK (autopilot IN (0, 1)),
	ADD CONSTRAINT seats_bank_check CHECK (bank >= 0),
	ADD CONSTRAINT seats_bot_check CHECK (bot IN ('', 'easy', 'normal', 'strong')),
	ADD CONSTRAINT seats_decision_check CHECK (decision >= 0),
	ADD CONSTRAINT seats_missed_check CHECK (missed >= 0),
	ADD CONSTRAINT seats_seat_check CHECK (seat >= 0),
	ADD CONSTRAINT seats_state_check CHECK (state IN ('invited', 'joined', 'declined', 'resigned')),
	ADD CONSTRAINT seats_token_check CHECK (token <> '');

ALTER TABLE games
	ALTER COLUMN bank_increment TYPE BIGINT,
	ALTER COLUMN bank_max TYPE BIGINT,
	ALTER COLUMN bank_start TYPE BIGINT,
	ALTER COLUMN kind TYPE TEXT,
	ALTER COLUMN snapshot_seq TYPE BIGINT,
	ALTER COLUMN status TYPE TEXT,
	ALTER COLUMN turn_time TYPE BIGINT,
	ALTER COLUMN weekends_off TYPE BIGINT,
	ADD CONSTRAINT games_bank_increment_check CHECK (bank_increment >= 0),
	ADD CONSTRAINT games_bank_max_check CHECK (bank_max >= 0),
	ADD CONSTRAINT games_bank_start_check CHECK (bank_start >= 0),
	ADD CONSTRAINT games_kind_check CHECK (kind <> ''),
	ADD CONSTRAINT games_snapshot_seq_check CHECK (snapshot_seq >= 0),
	ADD CONSTRAINT games_status_check CHECK (status IN ('inviting', 'active', 'paused', 'finished', 'aborted', 'declined')),
	ADD CONSTRAINT games_turn_time_check CHECK (turn_time IS NULL OR turn_time > 0),
	ADD CONSTRAINT games_weekends_off_check CHECK (weekends_off IN (0, 1));

DROP DOMAIN notify_setting;
DROP DOMAIN mail_notify_setting;
DROP DOMAIN outbox_state;
DROP DOMAIN move_source;
DROP DOMAIN bot_level;
DROP DOMAIN seat_state;
DROP DOMAIN game_status;
DROP DOMAIN nonempty_text;
DROP DOMAIN hour_of_day;
DROP DOMAIN flag01;
DROP DOMAIN positive_int;
DROP DOMAIN nonneg_int;
