-- prices (version 9)
CREATE TABLE t_9 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_9 (note) VALUES ('prices; rev 0');
INSERT INTO trace (tag) VALUES ('V9');
