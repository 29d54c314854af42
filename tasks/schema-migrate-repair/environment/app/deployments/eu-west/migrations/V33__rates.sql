-- rates (version 33)
CREATE TABLE t_33 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_33 (note) VALUES ('rates; rev 0');
INSERT INTO trace (tag) VALUES ('V33');
