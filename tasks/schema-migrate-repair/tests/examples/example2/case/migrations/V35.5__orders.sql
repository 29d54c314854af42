-- orders (version 35.5)
CREATE TABLE t_35_5 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_35_5 (note) VALUES ('orders; rev 0');
INSERT INTO trace (tag) VALUES ('V35.5');
