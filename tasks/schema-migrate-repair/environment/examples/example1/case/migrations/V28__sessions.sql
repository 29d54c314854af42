-- sessions (version 28)
CREATE TABLE t_28 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_28 (note) VALUES ('sessions; rev 0');
INSERT INTO trace (tag) VALUES ('V28');
