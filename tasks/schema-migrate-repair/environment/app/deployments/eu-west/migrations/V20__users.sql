-- users (version 20)
CREATE TABLE t_20 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_20 (note) VALUES ('users; rev 0');
INSERT INTO trace (tag) VALUES ('V20');
