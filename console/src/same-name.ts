// Whether two names are the same to a person reading a list: letter case and the spaces around
// them do not count (the Apps and Stores pages warn before a second app or store of one name).
export const sameName = (a: string, b: string): boolean =>
  a.trim().toLowerCase() === b.trim().toLowerCase();
