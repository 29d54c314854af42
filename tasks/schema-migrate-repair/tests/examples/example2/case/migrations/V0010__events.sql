-- events (version 10)
CREATE TABLE t_10 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_10 (note) VALUES ('events; rev 0');
INSERT INTO trace (tag) VALUES ('V10');
