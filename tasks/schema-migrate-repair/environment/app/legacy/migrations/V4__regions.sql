CREATE TABLE regions (code TEXT PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO regions VALUES ('N', 'North; inland'), ('C', 'Coast');
