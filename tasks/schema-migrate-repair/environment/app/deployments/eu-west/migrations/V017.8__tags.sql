-- tags (version 17.8)
CREATE TABLE t_17_8 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_17_8 (note) VALUES ('tags; rev 0');
INSERT INTO trace (tag) VALUES ('V17.8');
