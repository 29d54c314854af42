-- stock (version 12)
CREATE TABLE t_12 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_12 (note) VALUES ('stock; rev 0');
INSERT INTO trace (tag) VALUES ('V12');
