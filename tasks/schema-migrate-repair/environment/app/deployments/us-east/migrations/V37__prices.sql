-- prices (version 37)
CREATE TABLE t_37 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_37 (note) VALUES ('prices; rev 0');
INSERT INTO trace (tag) VALUES ('V37');
