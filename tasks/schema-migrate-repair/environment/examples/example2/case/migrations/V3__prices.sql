-- prices (version 3)
CREATE TABLE t_3 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_3 (note) VALUES ('prices; rev 0');
INSERT INTO trace (tag) VALUES ('V3');
