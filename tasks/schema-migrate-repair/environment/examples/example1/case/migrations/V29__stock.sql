-- stock (version 29)
CREATE TABLE t_29 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_29 (note) VALUES ('stock; rev 0');
INSERT INTO trace (tag) VALUES ('V29');
