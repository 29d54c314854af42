-- sessions (version 35.14)
CREATE TABLE t_35_14 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_35_14 (note) VALUES ('sessions; rev 0');
INSERT INTO trace (tag) VALUES ('V35.14');
