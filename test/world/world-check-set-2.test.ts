import { describeWorldCheckSlice } from "./check-set.js";

describeWorldCheckSlice(1, 2);
