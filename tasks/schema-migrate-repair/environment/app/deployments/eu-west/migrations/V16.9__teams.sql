-- teams (version 16.9)
CREATE TABLE t_16_9 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_16_9 (note) VALUES ('teams; rev 0');
INSERT INTO trace (tag) VALUES ('V16.9');
