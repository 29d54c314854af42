-- tags (version 38)
CREATE TABLE t_38 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_38 (note) VALUES ('tags; rev 0');
INSERT INTO trace (tag) VALUES ('V38');
