DROP TABLE region_totals;
