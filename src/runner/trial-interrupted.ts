/** Thrown when the job was interrupted mid-trial; such a trial is re-run on --resume. */
export class TrialInterrupted extends Error {}
