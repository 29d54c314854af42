-- vendors (version 2)
CREATE TABLE t_2 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_2 (note) VALUES ('vendors; rev 9');
INSERT INTO trace (tag) VALUES ('V2');
