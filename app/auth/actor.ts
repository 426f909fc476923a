// The acting member, as every profile and deal command receives it (DESIGN §4.2).
export type MemberActor = { userId: string; profileId: string; membershipType: string };

export function memberActor(profile: { id: string; userId: string; membershipType: string }): MemberActor {
  return { userId: profile.userId, profileId: profile.id, membershipType: profile.membershipType };
}
