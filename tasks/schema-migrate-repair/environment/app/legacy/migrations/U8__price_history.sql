DROP TABLE price_history;
