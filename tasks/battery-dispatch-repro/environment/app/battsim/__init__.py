"""battsim: behind-the-meter battery dispatch and bill simulator (standard library only)."""
