/**
 * @module
 * English words too common to be a useful hashtag. Lower case. Auto hashtags skip these and words under 3 letters.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'about above after again against all also and any are aren because been before being below between both but can ' +
    'cannot could couldn did didn does doesn doing don down during each even ever every few for from further get gets ' +
    'got had hadn has hasn have haven having her here hers herself him himself his how however into isn its itself ' +
    'just let like made make many may more most much must mustn myself near need new next nor not now off once one ' +
    'only other our ours ourselves out over own per put said same say says see shall she should shouldn since some ' +
    'still such take than that the their theirs them themselves then there these they this those though through too ' +
    'under until upon use used very via want was wasn way well were weren what when where whether which while who ' +
    'whom whose why will with within without won would wouldn yes yet you your yours yourself yourselves today ' +
    'tomorrow yesterday come comes came back really thing things lot lots day days time finally already always ' +
    'never soon great good best better big'
  ).split(/\s+/),
);
