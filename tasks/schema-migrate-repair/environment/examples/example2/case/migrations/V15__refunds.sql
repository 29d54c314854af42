-- refunds (version 15)
CREATE TABLE t_15 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_15 (note) VALUES ('refunds; rev 4');
INSERT INTO trace (tag) VALUES ('V15');
