import { describeWorldCheckSlice } from "./check-set.js";

describeWorldCheckSlice(0, 2);
