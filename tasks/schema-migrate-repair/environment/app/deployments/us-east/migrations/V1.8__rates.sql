-- rates (version 1.8)
CREATE TABLE t_1_8 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_1_8 (note) VALUES ('rates; rev 0');
INSERT INTO trace (tag) VALUES ('V1.8');
