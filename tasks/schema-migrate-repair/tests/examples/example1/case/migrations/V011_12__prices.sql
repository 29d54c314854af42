-- prices (version 11.12)
CREATE TABLE t_11_12 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_11_12 (note) VALUES ('prices; rev 0');
INSERT INTO trace (tag) VALUES ('V11.12');
